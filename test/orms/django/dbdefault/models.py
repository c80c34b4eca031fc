"""Django 5's db_default on ulid_tsid's keys: the DEFAULT is declared on the field, so
makemigrations writes it into the migration (no RunSQL), and Django sends DEFAULT for
an unset key and reads it back by the INSERT's RETURNING (no DatabaseDefaultMixin).
Installed only on Django 5.0 and later (django_orm.py)."""
# README django5-models: begin
from django.db import models

from keys.fields import TsidField, UlidField


class Event(models.Model):
    id = UlidField(primary_key=True, db_default=models.Func(function="generate_ulid"))
    name = models.TextField()
    number = TsidField(db_default=models.Func(function="generate_tsid"))   # not the key: read back too


class Attendee(models.Model):
    id = models.UUIDField(primary_key=True, db_default=models.Func(function="generate_uuidv7"))
    event = models.ForeignKey(Event, models.CASCADE, related_name="attendees")
    name = models.TextField()
# README django5-models: end
