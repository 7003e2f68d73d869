from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecordsConfig(AppConfig):
    name = "records"
    verbose_name = _("Game records")

    def ready(self) -> None:
        from accounts.signals import account_created

        from . import scopes
        from .integrity import checkpoint_finished_record, checkpoint_finished_records
        from .players import player_for_new_account
        from .signals import record_finished, records_finished
        from .store import event_store

        event_store()  # chosen once, when the process starts
        record_finished.connect(checkpoint_finished_record, dispatch_uid="records.checkpoint_finished_record")
        records_finished.connect(checkpoint_finished_records, dispatch_uid="records.checkpoint_finished_records")
        scopes.connect()
        account_created.connect(player_for_new_account, dispatch_uid="records.player_for_new_account")
