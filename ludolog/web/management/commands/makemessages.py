"""Django's ``makemessages``, also finding the counted phrases the pages pass around before
``ngettext`` sees them.

A phrase counted in a drawing's or a narration's own helper (``count("%(count)s tile", "%(count)s
tiles", n)``, the recorder's ``counted(...)``, a table of ``plural_noop(singular, plural)`` pairs),
a Maps drawing's words (``tr("...")``, the page's gettext handed to a module that has no Django)
and a play file's refusals (``MalformedFile(where, "...")``, translated when they are shown) reach
``gettext`` through a variable, where xgettext cannot see them: without these keywords the
catalogues would lose those phrases at the next run, and a Czech reader would read English.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options,
                        "--keyword=count:1,2", "--keyword=counted:1,2", "--keyword=plural_noop:1,2",
                        "--keyword=tr", "--keyword=MalformedFile:2"]
