"""The tables, through Django's migrations: makemigrations wrote the CreateModel
operations; the extension and the keys' database defaults are added by hand
(Django 3.2 has no db_default), and makemigrations --check finds nothing to add."""
import django.db.models.deletion
from django.contrib.postgres.operations import CreateExtension
from django.db import migrations, models

import keys.fields


def line(name, order):
    return migrations.CreateModel(name=name, fields=[
        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
        ("note", models.TextField()),
        ("order", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                    related_name="lines", to=order)),
    ])


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        # README django-migration: begin
        CreateExtension("ulid_tsid"),
        migrations.CreateModel(name="UlidOrder", fields=[
            ("id", keys.fields.UlidKey(primary_key=True, serialize=False)),
            ("item", models.TextField()),
            ("replaces", keys.fields.UlidField(null=True)),
        ]),
        migrations.RunSQL("ALTER TABLE keys_ulidorder ALTER COLUMN id SET DEFAULT generate_ulid()",
                          "ALTER TABLE keys_ulidorder ALTER COLUMN id DROP DEFAULT"),
        # README django-migration: end
        line("UlidLine", "keys.ulidorder"),
        migrations.CreateModel(name="TsidOrder", fields=[
            ("id", keys.fields.TsidKey(primary_key=True, serialize=False)),
            ("item", models.TextField()),
        ]),
        migrations.RunSQL("ALTER TABLE keys_tsidorder ALTER COLUMN id SET DEFAULT generate_tsid()",
                          "ALTER TABLE keys_tsidorder ALTER COLUMN id DROP DEFAULT"),
        line("TsidLine", "keys.tsidorder"),
        migrations.CreateModel(name="BigintOrder", fields=[
            ("id", keys.fields.TsidBigIntegerKey(primary_key=True, serialize=False)),
            ("item", models.TextField()),
        ]),
        migrations.RunSQL("ALTER TABLE keys_bigintorder ALTER COLUMN id SET DEFAULT generate_tsid()",
                          "ALTER TABLE keys_bigintorder ALTER COLUMN id DROP DEFAULT"),
        line("BigintLine", "keys.bigintorder"),
        migrations.CreateModel(name="UuidOrder", fields=[
            ("id", keys.fields.Uuidv7Key(primary_key=True, serialize=False)),
            ("item", models.TextField()),
        ]),
        migrations.RunSQL("ALTER TABLE keys_uuidorder ALTER COLUMN id SET DEFAULT generate_uuidv7()",
                          "ALTER TABLE keys_uuidorder ALTER COLUMN id DROP DEFAULT"),
        line("UuidLine", "keys.uuidorder"),
    ]
