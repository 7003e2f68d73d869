from django.db import migrations

from agenda.immutability import agenda_triggers


class Migration(migrations.Migration):
    """The door counts, the games tallied on site and the sessions' changes refuse UPDATE and
    DELETE from any client (agenda.immutability): the models refused them already."""

    dependencies = [
        ("agenda", "0002_session_game"),
    ]

    operations = [
        agenda_triggers(),
    ]
