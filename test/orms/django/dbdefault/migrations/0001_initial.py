"""Written by Django 5.2's makemigrations from dbdefault/models.py; only the
CreateExtension line is added by hand (and the README markers). The DEFAULTs are the
fields' db_default: no RunSQL."""

import django.db.models.deletion
from django.contrib.postgres.operations import CreateExtension
import keys.fields
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
    ]

    operations = [
        # README django5-migration: begin
        CreateExtension("ulid_tsid"),
        migrations.CreateModel(
            name='Event',
            fields=[
                ('id', keys.fields.UlidField(db_default=models.Func(function='generate_ulid'), primary_key=True, serialize=False)),
                ('name', models.TextField()),
                ('number', keys.fields.TsidField(db_default=models.Func(function='generate_tsid'))),
            ],
        ),
        # README django5-migration: end
        migrations.CreateModel(
            name='Attendee',
            fields=[
                ('id', models.UUIDField(db_default=models.Func(function='generate_uuidv7'), primary_key=True, serialize=False)),
                ('name', models.TextField()),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='attendees', to='dbdefault.event')),
            ],
        ),
    ]
