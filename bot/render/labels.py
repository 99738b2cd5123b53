"""Every word drawn in the images, in English, French, German and Greek.

``locale`` values such as ``"en"``, ``"en-US"``, ``"fr"``, ``"fr_CA"`` or ``"de-AT"``
fall back to their language, then to English (``"ja"`` reads English); a key missing
in a language falls back to English too. Placeholders use :meth:`str.format` syntax.

A label that may not fit its room has a short form, chosen by its translator: the key
``<key>.short`` in the same language (``"last_trick.short"``). :func:`fit_label` draws
the label whole if it fits, else its short form, and never cuts a label's word; only a
name filled into it (``{name}``) is cut, with an ellipsis. A short form is the
language's own: it never falls back to another language's.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from bot.render.draw import MIN_TEXT, fit, text_width
from bot.render.fonts import Weight

log = logging.getLogger(__name__)

EN: dict[str, str] = {
    "turn": "Turn",
    "wish": "Wish",
    "score": "Score",
    "target": "Target",
    "target_n": "Target {n}",
    "team": "Team",
    "team_n": "Team {n}",
    "deal": "Deal",
    "deal_n": "Deal {n}",
    "board_n": "Board {n} of {total}",
    "duplicate": "Duplicate, from 0–0",
    "passed": "passed",
    "tichu": "Tichu",
    "grand_tichu": "Grand Tichu",
    "out": "out",
    "out_1": "1st out",
    "out_2": "2nd out",
    "out_3": "3rd out",
    "out_4": "4th",
    "ord_1": "1st",
    "ord_2": "2nd",
    "ord_3": "3rd",
    "ord_4": "4th",
    "ord_5": "5th",
    "ord_6": "6th",
    "last_trick": "Last trick",
    "triple_victory": "Triple victory",
    "double_victory": "Double victory",
    "cards_n": "{n} cards",
    "card_n": "{n} card",
    "points_n": "{n} pts",
    "card_points": "Card points",
    "call_points": "Call bonus",
    "deal_score": "Deal score",
    "total": "Total",
    "running_total": "Running total",
    "made": "made",
    "failed": "failed",
    "deciding": "deciding…",
    "decided": "decided",
    "choosing": "choosing…",
    "gave": "gave",
    "phase_grand": "Grand Tichu?",
    "phase_grand_detail": "{n}/{total} decided",
    "phase_exchange": "Card exchange",
    "phase_exchange_detail": "{n}/{total} have given",
    "phase_gift": "Dragon trick",
    "phase_gift_detail": "{name} gives it away",
    "phase_gift_detail.short": "{name}",
    "must_give_dragon": "gives the Dragon",
    "phase_deal_over": "Deal over",
    "phase_game_over": "Game over",
    "trick": "Trick",
    "trick_points": "Trick: {n} pts",
    "leads": "{name} leads",
    "lead": "Lead",
    "on_top": "on top",
    "out_of_turn": "out of turn",
    "phoenix_as": "Phoenix as {rank}",
    "kind_single": "single",
    "kind_pair": "pair",
    "kind_stairs": "stairs",
    "kind_triple": "triple",
    "kind_full_house": "full house",
    "kind_straight": "straight",
    "kind_dog": "Dog",
    "kind_four_bomb": "bomb",
    "kind_straight_flush": "straight flush",
    "your_hand": "Your hand",
    "bomb": "Bomb",
    "new": "new",
    "from_left": "from left",
    "from_partner": "from partner",
    "from_right": "from right",
    "left": "Left",
    "partner": "Partner",
    "right": "Right",
    "to_left": "to the left",
    "to_partner": "to your partner",
    "to_right": "to the right",
    "exchange_title": "Your three gifts",
    "exchange_title_six": "Your two gifts",
    "left_partner": "Left partner",
    "from_left_partner": "from left partner",
    "from_right_partner": "from right partner",
    "right_partner": "Right partner",
    "to_left_partner": "to your left partner",
    "to_right_partner": "to your right partner",
    "exchange_hint": "Confirm to pass these cards",
    "not_chosen": "not chosen",
    "winner": "Winner",
    "wins": "{name} win!",
    "game_over": "Game over",
    "score_sheet": "Score sheet",
    "tie": "Tie",
    "led": "led",
    "trump": "Trump",
    "no_trump": "No trump",
    "bid": "Bid",
    "tricks": "Tricks",
    "points": "Points",
    "dealer": "Dealer",
    "bid_tricks": "Bid {bid} · Tricks {tricks}",
    "tricks_only": "Tricks {tricks}",
    "bid_only": "Bid {bid}",
    "dealer_mark": "D",
    "takes": "takes",
}

FR: dict[str, str] = {
    "turn": "À jouer",
    "wish": "Vœu",
    "score": "Score",
    "target": "Objectif",
    "target_n": "Objectif {n}",
    "team": "Équipe",
    "team_n": "Équipe {n}",
    "deal": "Donne",
    "deal_n": "Donne {n}",
    "board_n": "Donne {n} sur {total}",
    "duplicate": "Duplicate, à partir de 0–0",
    "passed": "passe",
    "tichu": "Tichu",
    "grand_tichu": "Grand Tichu",
    "out": "sorti",
    "out_1": "1er sorti",
    "out_2": "2e sorti",
    "out_3": "3e sorti",
    "out_4": "4e",
    "ord_1": "1er",
    "ord_2": "2e",
    "ord_3": "3e",
    "ord_4": "4e",
    "ord_5": "5e",
    "ord_6": "6e",
    "last_trick": "Dernier pli",
    "triple_victory": "Triple victoire",
    "double_victory": "Double victoire",
    "cards_n": "{n} cartes",
    "card_n": "{n} carte",
    "points_n": "{n} pts",
    "card_points": "Points des cartes",
    "call_points": "Bonus d'annonce",
    "deal_score": "Score de la donne",
    "total": "Total",
    "running_total": "Cumul",
    "made": "réussi",
    "failed": "chuté",
    "deciding": "réfléchit…",
    "decided": "a décidé",
    "choosing": "choisit…",
    "gave": "a donné",
    "phase_grand": "Grand Tichu ?",
    "phase_grand_detail": "{n}/{total} ont décidé",
    "phase_exchange": "Échange des cartes",
    "phase_exchange.short": "Échange",
    "phase_exchange_detail": "{n}/{total} ont donné",
    "phase_gift": "Pli du Dragon",
    "phase_gift.short": "Dragon",
    "phase_gift_detail": "{name} le donne",
    "phase_gift_detail.short": "{name}",
    "must_give_dragon": "donne le Dragon",
    "phase_deal_over": "Fin de la donne",
    "phase_game_over": "Fin de partie",
    "trick": "Pli",
    "trick_points": "Pli : {n} pts",
    "leads": "{name} entame",
    "lead": "Entame",
    "on_top": "maître",
    "out_of_turn": "hors tour",
    "phoenix_as": "Phénix = {rank}",
    "kind_single": "carte seule",
    "kind_pair": "paire",
    "kind_stairs": "suite de paires",
    "kind_triple": "brelan",
    "kind_full_house": "full",
    "kind_straight": "suite",
    "kind_dog": "Chien",
    "kind_four_bomb": "bombe",
    "kind_straight_flush": "quinte flush",
    "your_hand": "Votre main",
    "bomb": "Bombe",
    "new": "nouveau",
    "from_left": "de gauche",
    "from_partner": "du partenaire",
    "from_right": "de droite",
    "left": "Gauche",
    "partner": "Partenaire",
    "right": "Droite",
    "to_left": "à gauche",
    "to_partner": "au partenaire",
    "to_right": "à droite",
    "exchange_title": "Vos trois dons",
    "exchange_title_six": "Vos deux dons",
    "left_partner": "Partenaire gauche",
    "from_left_partner": "du part. gauche",
    "from_right_partner": "du part. droit",
    "right_partner": "Partenaire droit",
    "to_left_partner": "au partenaire de gauche",
    "to_left_partner.short": "au part. de gauche",
    "to_right_partner": "au partenaire de droite",
    "exchange_hint": "Confirmez pour donner ces cartes",
    "not_chosen": "à choisir",
    "winner": "Vainqueur",
    "wins": "{name} gagnent !",
    "game_over": "Fin de partie",
    "score_sheet": "Feuille de marque",
    "tie": "Égalité",
    "led": "a entamé",
    "trump": "Atout",
    "no_trump": "Sans atout",
    "bid": "Pari",
    "tricks": "Plis",
    "points": "Points",
    "dealer": "Donneur",
    "bid_tricks": "Pari {bid} · Plis {tricks}",
    "tricks_only": "Plis {tricks}",
    "bid_only": "Pari {bid}",
    "dealer_mark": "D",
    "takes": "prend",
}

DE: dict[str, str] = {
    "turn": "Am Zug",
    "wish": "Wunsch",
    "score": "Stand",
    "target": "Ziel",
    "target_n": "Ziel {n}",
    "team": "Team",
    "team_n": "Team {n}",
    "deal": "Runde",
    "deal_n": "Runde {n}",
    "board_n": "Board {n} von {total}",
    "duplicate": "Duplicate, ab 0–0",
    "passed": "passt",
    "tichu": "Tichu",
    "grand_tichu": "Großes Tichu",
    "out": "fertig",
    "out_1": "1. fertig",
    "out_2": "2. fertig",
    "out_3": "3. fertig",
    "out_4": "4.",
    "ord_1": "1.",
    "ord_2": "2.",
    "ord_3": "3.",
    "ord_4": "4.",
    "ord_5": "5.",
    "ord_6": "6.",
    "last_trick": "Letzter Stich",
    "triple_victory": "Dreifachsieg",
    "double_victory": "Doppelsieg",
    "cards_n": "{n} Karten",
    "card_n": "{n} Karte",
    "points_n": "{n} Pkt.",
    "card_points": "Kartenpunkte",
    "call_points": "Ansagebonus",
    "deal_score": "Rundenergebnis",
    "total": "Gesamt",
    "running_total": "Zwischenstand",
    "made": "geschafft",
    "failed": "verfehlt",
    "deciding": "überlegt…",
    "decided": "entschieden",
    "choosing": "wählt…",
    "gave": "geschupft",
    "phase_grand": "Großes Tichu?",
    "phase_grand_detail": "{n}/{total} entschieden",
    "phase_grand_detail.short": "{n}/{total} bereit",
    "phase_exchange": "Schupfen",
    "phase_exchange_detail": "{n}/{total} geschupft",
    "phase_gift": "Drachenstich",
    "phase_gift_detail": "{name} verschenkt ihn",
    "phase_gift_detail.short": "{name}",
    "must_give_dragon": "gibt den Drachen ab",
    "phase_deal_over": "Runde vorbei",
    "phase_game_over": "Partie vorbei",
    "trick": "Stich",
    "trick_points": "Stich: {n} Pkt.",
    "leads": "{name} spielt aus",
    "lead": "Ausspiel",
    "on_top": "liegt vorn",
    "out_of_turn": "außer der Reihe",
    "phoenix_as": "Phönix als {rank}",
    "kind_single": "Einzelkarte",
    "kind_pair": "Pärchen",
    "kind_stairs": "Treppe",
    "kind_triple": "Drilling",
    "kind_full_house": "Full House",
    "kind_straight": "Straße",
    "kind_dog": "Hund",
    "kind_four_bomb": "Viererbombe",
    "kind_straight_flush": "Straßenbombe",
    "your_hand": "Deine Hand",
    "bomb": "Bombe",
    "new": "neu",
    "from_left": "von links",
    "from_partner": "vom Partner",
    "from_right": "von rechts",
    "left": "Links",
    "partner": "Partner",
    "right": "Rechts",
    "to_left": "nach links",
    "to_partner": "an den Partner",
    "to_right": "nach rechts",
    "exchange_title": "Deine drei Schupfkarten",
    "exchange_title_six": "Deine zwei Schupfkarten",
    "left_partner": "Linker Partner",
    "from_left_partner": "vom linken Partner",
    "from_right_partner": "vom rechten Partner",
    "right_partner": "Rechter Partner",
    "to_left_partner": "an den linken Partner",
    "to_right_partner": "an den rechten Partner",
    "exchange_hint": "Bestätige, um diese Karten zu schupfen",
    "not_chosen": "nicht gewählt",
    "not_chosen.short": "noch offen",
    "winner": "Sieger",
    "wins": "{name} gewinnen!",
    "game_over": "Partie vorbei",
    "score_sheet": "Spielliste",
    "tie": "Unentschieden",
    "led": "ausgespielt",
    "trump": "Trumpf",
    "no_trump": "Ohne Trumpf",
    "bid": "Ansage",
    "tricks": "Stiche",
    "points": "Punkte",
    "dealer": "Geber",
    "bid_tricks": "Ansage {bid} · Stiche {tricks}",
    "tricks_only": "Stiche {tricks}",
    "bid_only": "Ansage {bid}",
    "dealer_mark": "G",
    "takes": "nimmt",
}

EL: dict[str, str] = {
    "turn": "Σειρά",
    "wish": "Ευχή",
    "score": "Σκορ",
    "target": "Στόχος",
    "target_n": "Στόχος {n}",
    "team": "Ομάδα",
    "team_n": "Ομάδα {n}",
    "deal": "Γύρος",
    "deal_n": "Γύρος {n}",
    "board_n": "Διανομή {n} από {total}",
    "duplicate": "Duplicate, από 0–0",
    "passed": "πάσο",
    "tichu": "Tichu",
    "grand_tichu": "Μεγάλο Tichu",
    "grand_tichu.short": "Μεγάλο",
    "out": "βγήκε",
    "out_1": "βγήκε 1ος",
    "out_2": "βγήκε 2ος",
    "out_3": "βγήκε 3ος",
    "out_4": "4ος",
    "ord_1": "1ος",
    "ord_2": "2ος",
    "ord_3": "3ος",
    "ord_4": "4ος",
    "ord_5": "5ος",
    "ord_6": "6ος",
    "last_trick": "Τελευταία χαρτωσιά",
    "last_trick.short": "Τελ. χαρτωσιά",
    "triple_victory": "Τριπλή νίκη",
    "double_victory": "Διπλή νίκη",
    "cards_n": "{n} κάρτες",
    "card_n": "{n} κάρτα",
    "points_n": "{n} πόντ.",
    "card_points": "Πόντοι καρτών",
    "call_points": "Μπόνους δηλώσεων",
    "deal_score": "Σκορ γύρου",
    "total": "Σύνολο",
    "running_total": "Τρέχον σύνολο",
    "made": "πέτυχε",
    "failed": "απέτυχε",
    "deciding": "σκέφτεται…",
    "decided": "αποφάσισε",
    "choosing": "διαλέγει…",
    "gave": "έδωσε",
    "phase_grand": "Μεγάλο Tichu;",
    "phase_grand_detail": "{n}/{total} αποφάσισαν",
    "phase_grand_detail.short": "{n}/{total} έτοιμοι",
    "phase_exchange": "Ανταλλαγή καρτών",
    "phase_exchange.short": "Ανταλλαγή",
    "phase_exchange_detail": "{n}/{total} έδωσαν",
    "phase_gift": "Χαρτωσιά του Δράκου",
    "phase_gift.short": "Δράκος",
    "phase_gift_detail": "{name} τη χαρίζει",
    "phase_gift_detail.short": "{name}",
    "must_give_dragon": "δίνει τον Δράκο",
    "phase_deal_over": "Τέλος γύρου",
    "phase_game_over": "Τέλος παρτίδας",
    "trick": "Χαρτωσιά",
    "trick_points": "Χαρτωσιά: {n} πόντ.",
    "leads": "Ανοίγει: {name}",
    "lead": "Άνοιγμα",
    "on_top": "κερδίζει",
    "out_of_turn": "εκτός σειράς",
    "phoenix_as": "Φοίνικας ως {rank}",
    "kind_single": "μονή",
    "kind_pair": "ζευγάρι",
    "kind_stairs": "σκάλα",
    "kind_triple": "τριάδα",
    "kind_full_house": "φουλ",
    "kind_straight": "κέντα",
    "kind_dog": "Σκύλος",
    "kind_four_bomb": "βόμβα",
    "kind_straight_flush": "κέντα χρώμα",
    "your_hand": "Το χέρι σου",
    "bomb": "Βόμβα",
    "new": "νέα",
    "from_left": "από αριστερά",
    "from_left.short": "αριστερά",
    "from_partner": "από συμπαίκτη",
    "from_partner.short": "συμπαίκτης",
    "from_right": "από δεξιά",
    "from_right.short": "δεξιά",
    "left": "Αριστερά",
    "partner": "Συμπαίκτης",
    "right": "Δεξιά",
    "to_left": "προς τα αριστερά",
    "to_left.short": "προς αριστερά",
    "to_partner": "στον συμπαίκτη σου",
    "to_partner.short": "στον συμπαίκτη",
    "to_right": "προς τα δεξιά",
    "exchange_title": "Οι τρεις κάρτες που δίνεις",
    "exchange_title_six": "Οι δύο κάρτες που δίνεις",
    "left_partner": "Συμπαίκτης αριστερά",
    "left_partner.short": "Συμπ. αριστερά",
    "from_left_partner": "από συμπ. αριστερά",
    "from_right_partner": "από συμπ. δεξιά",
    "right_partner": "Συμπαίκτης δεξιά",
    "to_left_partner": "στον συμπαίκτη αριστερά",
    "to_left_partner.short": "στον συμπ. αριστερά",
    "to_right_partner": "στον συμπαίκτη δεξιά",
    "exchange_hint": "Επιβεβαίωσε για να δώσεις αυτές τις κάρτες",
    "not_chosen": "δεν επιλέχθηκε",
    "not_chosen.short": "όχι ακόμα",
    "winner": "Νικητής",
    "wins": "Νικούν: {name}!",
    "game_over": "Τέλος παρτίδας",
    "score_sheet": "Πίνακας σκορ",
    "tie": "Ισοπαλία",
    "led": "άνοιξε",
    "trump": "Ατού",
    "no_trump": "Χωρίς ατού",
    "bid": "Δήλωση",
    "tricks": "Χαρτωσιές",
    "points": "Πόντοι",
    "dealer": "Μοιραστής",
    "bid_tricks": "Δήλωση {bid} · Πήρε {tricks}",
    "tricks_only": "Πήρε {tricks}",
    "bid_only": "Δήλωση {bid}",
    "dealer_mark": "Μ",
    "takes": "παίρνει",
}

CATALOG: dict[str, dict[str, str]] = {"en": EN, "fr": FR, "de": DE, "el": EL}


@lru_cache(maxsize=64)
def language(locale: str | None) -> str:
    """The language of ``locale`` that has labels: exact match, then its language, then
    English."""
    code = (locale or "en").strip().lower().replace("_", "-")
    for candidate in (code, code.split("-")[0]):
        if candidate in CATALOG:
            return candidate
    return "en"


@lru_cache(maxsize=8)
def catalog(locale: str | None) -> Mapping[str, str]:
    """The labels of ``locale``'s language, English filling the gaps."""
    lang = language(locale)
    return EN if lang == "en" else {**EN, **CATALOG[lang]}


def label(locale: str | None, key: str, **values: object) -> str:
    """The label ``key`` in ``locale``, formatted with ``values``."""
    text = catalog(locale)[key]
    return text.format(**values) if values else text


def short_label(locale: str | None, key: str, **values: object) -> str | None:
    """The short form of the label ``key`` its translator chose (``<key>.short``) in
    ``locale``'s own language, formatted; None when it has none."""
    lang = language(locale)
    text = CATALOG[lang].get(f"{key}.short")
    if text is None:
        return None
    return text.format(**values) if values else text


class Fitted(NamedTuple):
    """A label as it fits its room: its text, size and weight."""

    text: str
    size: int
    weight: Weight


def fit_label(locale: str | None, key: str, room: float, size: int,
              weight: Weight | Sequence[Weight] = "regular", *, min_size: int | None = None,
              free: Collection[str] = (), values: Mapping[str, object] | None = None
              ) -> Fitted:
    """The label ``key`` as it fits ``room`` pixels: whole, at the largest size from ``size``
    down to ``min_size`` (``size`` if None), in each of ``weight`` in turn (``("bold",
    "condensed-bold")``: narrower before shorter); else its short form
    (:func:`short_label`) likewise; else, at ``min_size`` and the last weight, the values
    named in ``free`` (names: the players', not the translator's) cut with an ellipsis, so
    that the label's own words stay whole (``values`` fill the label in). A label that fits in none of these ways is cut,
    and logged: its translator owes it a short form."""
    values = dict(values or {})
    weights: tuple[Weight, ...] = (weight,) if isinstance(weight, str) else tuple(weight)
    low = max(min(size if min_size is None else min_size, size), MIN_TEXT)
    forms = [label(locale, key, **values)]
    short = short_label(locale, key, **values)
    if short is not None:
        forms.append(short)
    for text in forms:
        for w in weights:
            for s in range(max(size, low), low - 1, -1):
                if text_width(text, s, w) <= room:
                    return Fitted(text, s, w)
    last = weights[-1]
    if free:
        for form in (label, short_label):  # the whole label first, then its short form
            blank = form(locale, key, **{k: "" if k in free else v for k, v in values.items()})
            left = ((room - text_width(blank, low, last)) / len(free)
                    if blank is not None else 0.0)
            if blank is not None and left >= text_width("Ab…", low, last):
                cut = {k: fit(str(v), left, low, last) if k in free else v
                       for k, v in values.items()}
                return Fitted(str(form(locale, key, **cut)), low, last)
    shortest = min(forms, key=lambda t: text_width(t, low, last))
    log.warning("the %s label %r does not fit %.0f px, even short: %r", language(locale),
                key, room, shortest)
    return Fitted(fit(shortest, room, low, last), low, last)


def ordinal(locale: str | None, n: int) -> str:
    """1st, 2nd... (1er, 2e... in French, 1., 2. in German, 1ος, 2ος in Greek) for 1..6."""
    return label(locale, f"ord_{n}")
