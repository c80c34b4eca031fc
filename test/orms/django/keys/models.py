"""Models with each of ulid_tsid's keys and a child table referencing it."""
# README django-models: begin
from django.db import models

from keys.fields import TsidBigIntegerKey, TsidKey, UlidField, UlidKey, Uuidv7Key


class UlidOrder(models.Model):
    id = UlidKey(primary_key=True)
    item = models.TextField()
    replaces = UlidField(null=True)   # a plain ulid column, may be NULL


class UlidLine(models.Model):
    order = models.ForeignKey(UlidOrder, models.CASCADE, related_name="lines")
    note = models.TextField()


class TsidOrder(models.Model):
    id = TsidKey(primary_key=True)
    item = models.TextField()


class TsidLine(models.Model):
    order = models.ForeignKey(TsidOrder, models.CASCADE, related_name="lines")
    note = models.TextField()


class BigintOrder(models.Model):
    id = TsidBigIntegerKey(primary_key=True)
    item = models.TextField()


class BigintLine(models.Model):
    order = models.ForeignKey(BigintOrder, models.CASCADE, related_name="lines")
    note = models.TextField()


class UuidOrder(models.Model):
    id = Uuidv7Key(primary_key=True)
    item = models.TextField()


class UuidLine(models.Model):
    order = models.ForeignKey(UuidOrder, models.CASCADE, related_name="lines")
    note = models.TextField()
# README django-models: end
