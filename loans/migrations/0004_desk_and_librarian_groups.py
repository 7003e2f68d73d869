"""The two staff groups the ludothèque's people go in, with their permissions, so that "desk staff
lend and take back; only librarians edit the catalogue and the checklists" holds from the first
run: ``desk`` (volunteers at the desk: households and members, the desk's pages, reading the
catalogue) and ``librarians`` (the catalogue, copies, checklists, the lending rules, and all the
desk does). A user also needs "staff status" to open the admin. Groups already there keep their
members; their permissions are added to, never taken away."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

DESK = {
    "loans": ["view_household", "add_household", "change_household", "view_member", "add_member", "change_member",
              "view_copyevent", "view_copystate", "view_hold", "view_notification", "view_component",
              "view_loanrules"],
    "games": ["view_cataloguerecord", "view_copy", "view_person", "view_publisher", "view_category"],
}
LIBRARIANS = {
    "loans": DESK["loans"] + ["delete_household", "delete_member", "add_component", "change_component",
                              "delete_component", "add_loanrules", "change_loanrules"],
    "games": [f"{action}_{model}" for model in ("cataloguerecord", "copy", "person", "publisher", "category",
                                                "contribution", "othertitle", "identifier", "language")
              for action in ("view", "add", "change", "delete")],
}


def make_groups(apps, schema_editor):
    # Permissions are made after the migrations of a new database: make them now.
    for config in apps.get_app_configs():
        # create_permissions skips an app without a models module, which a migration's apps lack.
        models_module = getattr(config, "models_module", None)
        config.models_module = models_module or True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, wanted in (("desk", DESK), ("librarians", LIBRARIANS)):
        group, _ = Group.objects.get_or_create(name=name)
        for app_label, codenames in wanted.items():
            group.permissions.add(*Permission.objects.filter(content_type__app_label=app_label,
                                                             codename__in=codenames))


class Migration(migrations.Migration):
    dependencies = [("loans", "0003_catalogued_copies_history"), ("games", "0010_deleted_records"),
                    ("auth", "0012_alter_user_first_name_max_length"), ("contenttypes", "0002_remove_content_type_name")]

    operations = [migrations.RunPython(make_groups, migrations.RunPython.noop)]
