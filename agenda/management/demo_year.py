"""What the demo ludothèque's year is made of, as plain data and seeded draws (no Django):
its households, the games it adds to the demo catalogue, the days its events and closures fall
on, and how many people of each public come to an opening in each season.

``load_demo_year`` writes them through the agenda's and the loans desk's services; everything
here is a function of a date and a ``random.Random`` seeded once, so that a day's demo is the
same on every machine.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

SEED = 39
"""The issue's number: every draw of the demo year comes from one generator seeded with it."""

LIBRARY_TOWN = "Lille"

SEASON = {1: 1.05, 2: 1.15, 3: 1.0, 4: 0.95, 5: 0.85, 6: 0.75, 7: 0.8, 8: 0.55, 9: 0.8, 10: 1.0, 11: 1.1, 12: 1.2}
"""How busy an opening is by month, the year's average 1: the winter months full (it is cold and
dark outside), a quiet June of school fêtes, August half empty, the rentrée slow to start."""

FAMILIES_PER_OPENING = {2: 11.0, 5: 9.0}
"""The families at an opening in an average month: Wednesday afternoon (no school in France),
Saturday morning."""

CHILD_BANDS = (("child_0_2", 0.14), ("child_3_5", 0.32), ("child_6_11", 0.42), ("child_12_17", 0.12))
"""The children a family brings, by age band: mostly under twelve."""

# name, town, postcode, street, members (first name, year of birth; None: the household's name)
TOWNS = {
    "Lille": "59000", "Lambersart": "59130", "La Madeleine": "59110", "Marcq-en-Barœul": "59700",
    "Villeneuve-d’Ascq": "59650", "Ronchin": "59790", "Mons-en-Barœul": "59370", "Faches-Thumesnil": "59155",
}
STREETS = ("rue Solférino", "rue de Gand", "boulevard Vauban", "rue Nationale", "rue d’Esquermes",
           "rue Pierre-Legrand", "rue des Postes", "rue Gambetta", "avenue de la République", "rue Jean-Jaurès",
           "rue du Molinel", "rue de Wazemmes", "place Sébastopol", "rue Saint-Sauveur")


@dataclass(frozen=True)
class DemoHousehold:
    card: str
    name: str
    town: str
    members: tuple[tuple[str, int], ...]
    tariff: str
    """The tariff it pays: ``resident``, ``non_resident`` or ``reduced`` (:data:`TARIFFS`)."""
    returning: bool
    """A member before the year began (its membership typed on it, renewed in the year), else new."""
    renews: bool
    """A returning household that renews; one that does not has lapsed."""


TARIFFS = {
    # key: (name, kind, per, amount)
    "resident": ("Adhésion Lille", "resident", "household", "15.00"),
    "non_resident": ("Hors commune", "non_resident", "person", "8.00"),
    "reduced": ("Tarif réduit", "reduced", "household", "5.00"),
}

FAMILIES = (
    # surname, town, tariff, parents' first names, children's first names
    ("Lefebvre", "Lille", "resident", ("Claire", "Thomas"), ("Louise", "Gabriel")),
    ("Vandenberghe", "Lambersart", "non_resident", ("Sophie",), ("Arthur", "Rose", "Jules")),
    ("Benali", "Lille", "reduced", ("Samira", "Karim"), ("Yanis", "Lina")),
    ("Delattre", "Lille", "resident", ("Julie", "Maxime"), ("Léna",)),
    ("Nowak", "Ronchin", "non_resident", ("Anna", "Piotr"), ("Hugo",)),
    ("Da Silva", "Lille", "resident", ("Marta", "João"), ("Inès", "Lucas")),
    ("Diallo", "Lille", "reduced", ("Aminata",), ("Moussa", "Fatou", "Awa")),
    ("Lemaire", "La Madeleine", "non_resident", ("Camille", "Antoine"), ("Zoé",)),
    ("Caron", "Lille", "resident", ("Élodie", "Nicolas"), ("Jade", "Noah")),
    ("Vasseur", "Lille", "resident", ("Aurélie",), ("Timéo",)),
    ("Duhamel", "Villeneuve-d’Ascq", "non_resident", ("Marion", "Julien"), ("Alice", "Paul")),
    ("Roussel", "Lille", "resident", ("Sarah", "Benoît"), ("Mila", "Sacha", "Nina")),
    ("Haddad", "Lille", "reduced", ("Leïla", "Mehdi"), ("Adam",)),
    ("Carpentier", "Lille", "resident", ("Laure", "Olivier"), ("Chloé",)),
    ("Mahieu", "Marcq-en-Barœul", "non_resident", ("Pauline",), ("Victor", "Manon")),
    ("Wattel", "Lille", "resident", ("Émilie", "Romain"), ("Maël", "Lou")),
    ("Pruvost", "Lille", "resident", ("Hélène", "Xavier"), ("Agathe", "Raphaël", "Anna")),
    ("Kaci", "Lille", "resident", ("Nadia", "Sofiane"), ("Ilyes",)),
    ("Delcroix", "Mons-en-Barœul", "non_resident", ("Justine", "Cédric"), ("Ambre",)),
    ("Fontaine", "Lille", "resident", ("Céline",), ("Léo", "Lola")),
    ("Deschamps", "Lille", "resident", ("Anne", "Vincent"), ("Margaux",)),
    ("Nguyen Van", "Lille", "resident", ("Linh", "Duc"), ("Emma", "Tom")),
    ("Hennebelle", "Faches-Thumesnil", "non_resident", ("Virginie", "Fabrice"), ("Clément", "Lucie")),
    ("Gomez", "Lille", "reduced", ("Lucía",), ("Mateo", "Elena")),
    ("Mercier", "Lille", "resident", ("Charlotte", "Guillaume"), ("Ethan", "Jeanne")),
    ("Boulanger", "Lambersart", "non_resident", ("Estelle", "Damien"), ("Robin",)),
    ("Lecomte", "Lille", "resident", ("Marie", "Arnaud"), ("Capucine", "Basile", "Suzanne")),
    ("Dumont", "Lille", "resident", ("Isabelle", "Stéphane"), ("Axel",)),
    ("Traoré", "Lille", "reduced", ("Mariam", "Ibrahim"), ("Aïcha", "Ousmane")),
    ("Leroy", "Ronchin", "non_resident", ("Amandine", "Sébastien"), ("Eva", "Nathan")),
    ("Petit", "Lille", "resident", ("Laetitia", "Jérôme"), ("Romy",)),
    ("Lambert", "Lille", "resident", ("Delphine", "François"), ("Théo", "Clara")),
)
SENIORS = (
    # surname, town, tariff, first names: grandparents who come with their grandchildren
    ("Dupont", "Lille", "resident", ("Monique", "Gérard")),
    ("Moreau", "La Madeleine", "non_resident", ("Françoise",)),
    ("Vermeulen", "Lille", "resident", ("Bernard", "Josiane")),
    ("Leclercq", "Lille", "reduced", ("Colette",)),
)
ADULTS = (
    # surname, town, tariff, first names: adults who come to play among themselves
    ("Bailleul", "Lille", "resident", ("Quentin", "Océane")),
    ("Morel", "Villeneuve-d’Ascq", "non_resident", ("Kevin",)),
    ("Renard", "Lille", "resident", ("Mathilde",)),
    ("Cordier", "Lille", "resident", ("Yann", "Pauline")),
)


def households(rng: random.Random, this_year: int) -> list[DemoHousehold]:
    """The demo's forty households, cards ``M-0101`` on: families with children of every age,
    grandparents, adults who play; about two thirds members before the year (four of whom do not
    renew), a third new."""
    made = []
    for surname, town, tariff, parents, children in FAMILIES:
        born = rng.randint(1976, 1993)
        eldest = rng.randint(max(born + 22, this_year - 17), this_year - 1)
        members = [(name, born + rng.randint(-2, 2)) for name in parents]
        members += [(name, min(this_year - 1, eldest + 2 * index + rng.randint(0, 1)))
                    for index, name in enumerate(children)]
        made.append((surname, town, tariff, members))
    for surname, town, tariff, names in SENIORS:
        born = rng.randint(1946, 1958)
        made.append((surname, town, tariff, [(name, born + rng.randint(-2, 2)) for name in names]))
    for surname, town, tariff, names in ADULTS:
        born = rng.randint(1985, 2002)
        made.append((surname, town, tariff, [(name, born + rng.randint(-1, 1)) for name in names]))
    order = list(range(len(made)))
    rng.shuffle(order)
    new = set(order[:13])
    lapsed = set(order[13:17])
    return [DemoHousehold(card=f"M-{101 + index:04d}", name=f"Famille {surname}", town=town,
                          members=tuple((f"{first} {surname}", born) for first, born in members), tariff=tariff,
                          returning=index not in new, renews=index not in lapsed)
            for index, (surname, town, tariff, members) in enumerate(made)]


def street_address(rng: random.Random) -> str:
    return f"{rng.randint(1, 180)} {rng.choice(STREETS)}"


def opening_arrivals(rng: random.Random, day: dt.date) -> dict[str, int]:
    """Who comes to an opening on ``day``, by public (the door counter's): families, the children
    they bring by age band, their adults, grandparents, and adults who come to play."""
    mean = FAMILIES_PER_OPENING.get(day.weekday(), 9.0) * SEASON[day.month]
    families = max(1, round(rng.gauss(mean, mean / 4)))
    counts = dict.fromkeys(("family", "child_0_2", "child_3_5", "child_6_11", "child_12_17", "adult", "senior"), 0)
    counts["family"] = families
    bands, weights = zip(*CHILD_BANDS, strict=True)
    for _family in range(families):
        for band in rng.choices(bands, weights, k=rng.choice((1, 1, 2, 2, 2, 3))):
            counts[band] += 1
        counts["adult"] += 1 + (rng.random() < 0.35)
        counts["senior"] += rng.random() < 0.15
    counts["adult"] += rng.choice((0, 0, 1, 2))
    counts["senior"] += rng.choice((0, 0, 0, 1))
    return counts


def last_weekday_of_may(year: int, weekday: int) -> dt.date:
    day = dt.date(year, 5, 31)
    return day - dt.timedelta(days=(day.weekday() - weekday) % 7)


def weekday_on_or_after(day: dt.date, weekday: int) -> dt.date:
    return day + dt.timedelta(days=(weekday - day.weekday()) % 7)


def closures(first_day: dt.date, last_day: dt.date) -> list[tuple[dt.date, dt.date, str]]:
    """The summer's two weeks (from the first Monday of August) and the Christmas holidays that
    fall between ``first_day`` and ``last_day``."""
    found = []
    for year in range(first_day.year - 1, last_day.year + 1):
        summer = weekday_on_or_after(dt.date(year, 8, 1), 0)
        for starts, ends, reason in ((summer, summer + dt.timedelta(days=13), "Fermeture estivale"),
                                     (dt.date(year, 12, 24), dt.date(year + 1, 1, 2), "Vacances de Noël")):
            if starts <= last_day and ends >= first_day:
                found.append((starts, ends, reason))
    return sorted(found)


ESAR_LABELS = {"A": "Jeux d’exercice", "B": "Jeux symboliques", "C": "Jeux d’assemblage", "D": "Jeux de règles"}

EXTRA_CATALOGUE = {
    "_about": "The demo ludothèque's everyday games, beside the seed documents' boxes: what its year lends and "
              "plays on site (load_demo_year). Classed by ESAR group only.",
    "languages": [{"code": "fre", "name": "Français"}],
    "records": [
        {"title": title, "document_type": "objet à 3 dimensions, artefacts, ...", "publisher": publisher,
         "publication_year": year, "min_players": players[0], "max_players": players[1], "min_age": age,
         "duration_minutes": minutes, "languages": ["fre"],
         "categories": [{"code": esar, "label": ESAR_LABELS[esar], "scheme": "esar"}],
         "copies": [{"barcode": f"{prefix}-{number:04d}", "shelf_location": shelf, "status": "available"}
                    for number in range(1, copies + 1)]}
        for title, publisher, year, players, age, minutes, esar, prefix, shelf, copies in (
            ("Le Verger", "Haba", 1986, (1, 8), 3, 10, "D", "LUD-VE", "Premiers jeux", 2),
            ("Dobble", "Asmodee", 2009, (2, 8), 6, 15, "D", "LUD-DO", "Jeux d’ambiance", 3),
            ("Halli Galli", "Amigo", 1990, (2, 6), 6, 15, "D", "LUD-HA", "Jeux d’ambiance", 2),
            ("Les Aventuriers du Rail", "Days of Wonder", 2004, (2, 5), 8, 45, "D", "LUD-AR", "Jeux de stratégie", 2),
            ("Dixit", "Libellud", 2008, (3, 6), 8, 30, "D", "LUD-DX", "Jeux d’ambiance", 2),
            ("Jungle Speed", "Asmodee", 1997, (2, 8), 7, 15, "D", "LUD-JS", "Jeux d’ambiance", 2),
            ("Kapla 200 planchettes", "Kapla", None, (1, 6), 3, None, "C", "LUD-KA", "Construction", 2),
            ("Puzzle 24 pièces : la ferme", None, None, (1, 2), 3, 15, "C", "LUD-PU", "Premiers jeux", 1),
            ("Dînette en bois", None, None, (1, 4), 2, None, "B", "LUD-DI", "Jeux d’imitation", 1),
            ("Jeu de quilles en bois", None, None, (1, 6), 2, None, "A", "LUD-QU", "Jeux d’adresse", 1),
        )
    ],
}
LENT_ON_THE_YEAR = ("LUD-VE", "LUD-DO", "LUD-HA", "LUD-AR", "LUD-DX", "LUD-JS", "LUD-KA", "LUD-PU", "LUD-QU")
"""The copies the year's households borrow (by barcode prefix): the new shelf's, the imitation
corner's dînette aside (played on site, never lent). The seed documents' boxes are left to the
three households of ``load_demo_loans``, whose loans and hold they are."""
