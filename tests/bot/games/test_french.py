"""French (and German and Greek) all the way: cards named the reader's way in every
game's menus and messages (D♥ R♣ V♠ in French, D♥ K♣ B♠ in German; Greek reads the
J Q K A of Greek decks, with Greek names for the specials); names and teams after *de*
in correct French, one word (« donne ») for a deal."""

from __future__ import annotations

import json
import re
import unicodedata
from importlib import resources
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games.chinois.hand import card_option as chinois_option
from bot.games.chinois.hand import trump_text
from bot.games.chinois.table import _trump_said
from bot.games.shared import log_line
from bot.games.tichu.hand import hand_message as tichu_hand
from bot.games.tichu.hand import play_option
from bot.games.tichu.spec import TICHU
from bot.games.tysiacha.hand import hand_message as tysiacha_hand
from bot.games.tysiacha.log import describe as tysiacha_describe
from bot.games.tysiacha.spec import TYSIACHA
from bot.games.tysiacha.table import announcement as tysiacha_announcement
from bot.i18n import t
from bot.i18n.catalog import catalog, de
from bot.i18n.names import card_label, card_labels, combo_name
from bot.store.models import SeatRecord, TableRecord, TableStatus
from bot.tables import LogEntry, Table
from engine.cards import parse_card, parse_cards
from engine.tichu.actions import DeclineGrand, Exchange
from engine.tichu.cards import DECK, DOG, DRAGON, MAHJONG, PHOENIX
from engine.tichu.combos import readings
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase
from engine.tysiacha.actions import Bid, Pass
from engine.tysiacha.deal import Deal
from engine.tysiacha.game import TysiachaGame

ENGLISH_CARD_WORDS = ("Dog", "Phoenix", "Mahjong", "Mah Jong", "Jack", "Queen", "King", "Ace")


def english_face(text: str, locale: str = "fr") -> bool:
    """``J♣``, ``Q♥``, ``K♠``: a face card named the English way, by a letter that
    ``locale`` does not use (German shares the K, Greek decks print J Q K A)."""
    keys = ("rank.jack.short", "rank.queen.short", "rank.king.short")
    english = {t("en", key) for key in keys} - {t(locale, key) for key in keys}
    return any(f"{face}{suit}" in text for face in english for suit in "♣♦♥♠")


# ------------------------------------------------------------------ card labels
@pytest.mark.parametrize(
    ("card", "en", "fr", "de", "el"),
    [
        (DOG, "Dog", "Chien", "Hund", "Σκύλος"),
        (PHOENIX, "Phoenix", "Phénix", "Phönix", "Φοίνικας"),
        (DRAGON, "Dragon", "Dragon", "Drache", "Δράκος"),
        (MAHJONG, "Mahjong", "Moineau", "Mah Jong", "Μα Τζονγκ"),
        (parse_card("Qh"), "Q♥", "D♥", "D♥", "Q♥"),
        (parse_card("Kc"), "K♣", "R♣", "K♣", "K♣"),
        (parse_card("Js"), "J♠", "V♠", "B♠", "J♠"),
        (parse_card("Ad"), "A♦", "A♦", "A♦", "A♦"),
        (parse_card("Tc"), "10♣", "10♣", "10♣", "10♣"),
        (parse_card("7h"), "7♥", "7♥", "7♥", "7♥"),
    ],
)
def test_a_card_is_labelled_in_the_readers_language(card: Any, en: str, fr: str, de: str,
                                                    el: str) -> None:
    assert card_label("en", card) == en
    assert card_label("fr", card) == fr
    assert card_label("fr-FR", card) == fr
    assert card_label("de", card) == de
    assert card_label("de-AT", card) == de
    assert card_label("el", card) == el
    assert card_label("ja", card) == en  # no catalog: English


@pytest.mark.parametrize(("locale", "label", "description", "dog"), [
    ("fr", "Paire de Dames", "#11 #14 · D♥ Phénix", "#1 · Chien"),
    ("de", "Pärchen Damen", "#11 #14 · D♥ Phönix", "#1 · Hund"),
    ("el", "Ζευγάρι Ντάμων", "#11 #14 · Q♥ Φοίνικας", "#1 · Σκύλος"),
])
def test_the_tichu_play_menu_names_cards_in_the_readers_language(
        locale: str, label: str, description: str, dog: str) -> None:
    cards = parse_cards(["PHOENIX", "Qh"])
    pair = next(r for r in readings(cards) if r.kind.value == "pair")
    index = {PHOENIX: 14, parse_card("Qh"): 11}
    option = play_option(locale, pair, index)
    assert option.label == label
    assert option.description == description
    english = play_option("en", pair, index)
    assert english.description == "#11 #14 · Q♥ Phoenix"
    played = readings((DOG,))[0]
    assert play_option(locale, played, {DOG: 1}).description == dog


def tichu_table(game: TichuGame) -> Table:
    record = TableRecord(id=5, guild_id=1, channel_id=1, host_id=1, game="tichu",
                         status=TableStatus.PLAYING, seed="fixed",
                         seats=[SeatRecord(seat=s, user_id=100 + s, name=name)
                                for s, name in enumerate(("Alice", "Bob", "Ève", "Hugo"))])
    return Table(record, TICHU, game)


def options_of(message: Any) -> list[tuple[str, str | None]]:
    return [(o.label, o.description) for item in message.view.children
            if hasattr(getattr(item, "item", None), "options") for o in item.item.options]


@pytest.mark.parametrize(("locale", "names", "faces"), [
    ("fr", ("Chien", "Phénix", "Moineau"), ("D♥", "R♣", "V♠")),
    ("de", ("Hund", "Phönix", "Mah Jong"), ("D♥", "K♣", "B♠")),
    ("el", ("Σκύλος", "Φοίνικας", "Μα Τζονγκ"), ("Q♥", "K♣", "J♠")),
])
async def test_a_tichu_hand_panel_has_no_english_card_names(
        locale: str, names: tuple[str, ...], faces: tuple[str, ...]) -> None:
    mine = ["MAHJONG", "DOG", "PHOENIX", "DRAGON", "Qh", "Qd", "Kc", "Kd", "Js", "Jh", "Ah",
            "Tc", "9c", "2d"]
    taken = set(mine)
    rest = [str(c) for c in DECK if str(c) not in taken]
    hands = [parse_cards(mine)] + [parse_cards(rest[i * 14:(i + 1) * 14]) for i in range(3)]
    game = TichuGame(hands=hands, target=1000)
    for seat in range(4):
        game.apply(DeclineGrand(seat))
    gives = {0: ["2d", "9c", "Tc"]}
    for seat in range(4):
        view = game.view(seat)
        cards = parse_cards(gives[seat]) if seat in gives else view.hand[:3]
        game.apply(Exchange(seat, tuple(zip(view.exchange_targets(seat), cards, strict=True))))
    assert game.phase is Phase.PLAY and game.turn == 0
    table = tichu_table(game)
    message = await tichu_hand(table, 0, locale)
    options = options_of(message)
    labels = " | ".join(f"{label} {description or ''}" for label, description in options)
    for word in ENGLISH_CARD_WORDS:
        assert word in names or word not in labels, word
    assert not english_face(labels, locale)
    assert all(name in labels for name in names), names
    assert all(face in labels for face in faces), faces
    english = " ".join(f"{label} {description or ''}" for label, description
                       in options_of(await tichu_hand(table, 0, "en")))
    assert "Phoenix" in english and "Q♥" in english


# ------------------------------------------------------------------ Chinois
@pytest.mark.parametrize(("locale", "queen", "king", "jack"), [
    ("en", "Q♥", "K♠", "J♦"), ("fr", "D♥", "R♠", "V♦"), ("de", "D♥", "K♠", "B♦"),
    ("el", "Q♥", "K♠", "J♦"),
])
def test_chinois_cards_and_trump_in_the_readers_language(locale: str, queen: str, king: str,
                                                         jack: str) -> None:
    assert chinois_option(locale, parse_card("Qh"), 3).label == f"#3 {queen}"
    view: Any = SimpleNamespace(trump_card=parse_card("Ks"))
    assert trump_text(view, locale) == king
    # The trump of a round, in words (the score sheet's description).
    game = SimpleNamespace(deal_log=[(SimpleNamespace(round=4, trump_card=parse_card("Jd")), [])])
    result: Any = SimpleNamespace(round=4)
    assert _trump_said(game, result, locale) == jack


# ------------------------------------------------------------------ Tysiacha
def tysiacha_table() -> Table:
    hands = ["Kh Qh Ah Th 9c Jc Js", "Ac Tc Kc Qc Ad Td Kd", "Qd Jd 9d Jh 9h As Ts"]
    deal = Deal(dealer=2, hands=tuple(tuple(parse_cards(h.split())) for h in hands),
                prikup=tuple(parse_cards(["Ks", "Qs", "9s"])))
    record = TableRecord(id=7, guild_id=1, channel_id=1, host_id=1, game="tysiacha",
                         status=TableStatus.PLAYING, seed="fixed",
                         seats=[SeatRecord(seat=s, user_id=100 + s, name=name)
                                for s, name in enumerate(("Alice", "Bob", "Ève"))])
    return Table(record, TYSIACHA, TysiachaGame(deal=deal))


@pytest.mark.parametrize(("locale", "faces", "prikup"), [
    ("fr", ("D♥", "R♠", "V♣"), "R♠ D♠ 9♠"),
    ("de", ("D♥", "K♠", "B♣"), "K♠ D♠ 9♠"),
    ("el", ("Q♥", "K♠", "J♣"), "K♠ Q♠ 9♠"),
])
async def test_tysiacha_menus_and_the_prikup_in_the_readers_language(
        locale: str, faces: tuple[str, ...], prikup: str) -> None:
    table = tysiacha_table()
    game = table.game
    game.apply(Bid(0, 100))
    game.apply(Pass(1))
    applied = game.apply(Pass(2))
    # The soloist's gift menus: the cards the reader's way.
    labels = " | ".join(label for label, _ in options_of(await tysiacha_hand(table, 0, locale)))
    assert all(face in labels for face in faces), labels
    assert not english_face(labels, locale)
    # The prikup, shown to everyone.
    entry = next(e for e in tysiacha_describe(applied) if e.key == "tysiacha.log.prikup")
    message = await tysiacha_announcement(table, entry, locale)
    assert message is not None
    assert message.content == t(locale, "tysiacha.prikup.text", name="Alice", bid=100,
                                cards=prikup)
    english = await tysiacha_announcement(table, entry, "en")
    assert english is not None and english.content.endswith("K♠ Q♠ 9♠")


@pytest.mark.parametrize(("locale", "line", "faces"), [
    ("fr", "Bob : D♥", "A♥ R♥ D♥ V♥"), ("de", "Bob: D♥", "A♥ K♥ D♥ B♥"),
    ("el", "Bob: Q♥", "A♥ K♥ Q♥ J♥"),
])
def test_a_played_card_in_the_table_log_is_in_the_readers_language(locale: str, line: str,
                                                                   faces: str) -> None:
    entry = LogEntry("tysiacha.log.play", {"seat": 1, "card": parse_card("Qh")})
    assert log_line(entry, ["Alice", "Bob", "Ève"], locale) == line
    assert card_labels(locale, parse_cards(["Ah", "Kh", "Qh", "Jh"])) == faces


# ------------------------------------------------------------------ grammar
def test_de_elides_before_a_vowel_or_a_mute_h() -> None:
    assert de("Alice") == "d’Alice"
    assert de("Ève") == "d’Ève"
    assert de("Hugo") == "d’Hugo"
    assert de("Équipe A") == "d’Équipe A"
    assert de("Bob") == "de Bob"
    assert de("Ordi 2 (facile)") == "d’Ordi 2 (facile)"
    assert de("Zoé") == "de Zoé"
    assert de("<@42>") == "de <@42>"
    assert de("**Alice**") == "d’**Alice**"


def test_names_after_de_in_french_sentences() -> None:
    assert t("fr", "hand.their_turn", name="Alice") == "C’est au tour d’Alice."
    assert t("fr", "hand.their_turn", name="Bob") == "C’est au tour de Bob."
    assert t("fr", "chinois.hand.their_bid", name="Ève") == "En attente du pari d’Ève."
    assert t("fr", "table.waiting_exchange", names="Alice, Bob") \
        == "Échange : en attente d’Alice, Bob"
    assert t("fr", "history.title", game="Tichu", name="Olivier") \
        == "Tichu — dernières parties d’Olivier"
    assert t("fr", "thread.name", game="Tichu", id=3) == "Table de Tichu n°3"
    # English is untouched.
    assert t("en", "hand.their_turn", name="Alice") == "It is Alice's turn."


@pytest.mark.parametrize(
    ("cards", "fr"),
    [
        ("Ac Ad", "Paire d’As"),
        ("8c 8d", "Paire de 8"),
        ("Ac Ad Ah", "Brelan d’As"),
        ("Qc Qd Qh", "Brelan de Dames"),
        ("Ac Ad Ah As", "Bombe : carré d’As"),
    ],
)
def test_combinations_of_aces_elide(cards: str, fr: str) -> None:
    combo = readings(parse_cards(cards.split()))[0]
    assert combo_name("fr", combo) == fr


def test_the_winning_team_in_french() -> None:
    entry = LogEntry("log.game_over", {"team": 0})
    assert log_line(entry, ["a", "b", "c", "d"], "fr") \
        == "Partie terminée — victoire de l’Équipe A !"
    assert "de Équipe" not in log_line(entry, ["a", "b", "c", "d"], "fr")
    assert log_line(entry, ["a", "b", "c", "d"], "en") == t("en", "log.game_over", team="Team A")
    assert t("fr", "table.game_over", names="Alice & Ève", scores="1020 – 340") \
        == "🏆 **Alice & Ève** remportent la partie, 1020 – 340 !"


def french_texts() -> dict[str, str]:
    texts: dict[str, str] = {}
    for entry in resources.files("bot.i18n").iterdir():
        if entry.name == "fr.json" or entry.name.endswith(".fr.json"):
            texts.update(json.loads(entry.read_text(encoding="utf-8")))
    return texts


def test_a_deal_is_a_donne_in_french() -> None:
    for key, text in french_texts().items():
        assert "manche" not in text.lower(), key
    assert t("fr", "log.deal_over", number=2, scores="100 – 0") == "Donne 2 terminée : 100 – 0"
    assert t("fr", "chinois.round", round=3, rounds=28, cards=3) == "Donne 3/28 · cartes : 3"
    assert t("fr", "tysiacha.table.deal_over", number=4, scores="x") \
        == "La donne 4 est terminée. Totaux : x."


def test_no_french_sentence_puts_de_before_a_placeholder() -> None:
    """« de {name} » cannot elide (« de Alice »): French sentences write ``{name:de}``."""
    for key, text in french_texts().items():
        assert not re.search(r"\b[Dd]e \{", text), key


# ------------------------------------------------------------------ command names
def discord_command_name(name: str) -> bool:
    """Discord's rule for chat command and option names: 1 to 32 of letters, numbers,
    ``-``, ``_`` and ``'`` (any script), lowercase where the letter has a lowercase."""
    return 1 <= len(name) <= 32 and name == name.lower() and all(
        c in "-_'" or unicodedata.category(c)[0] in "LN" for c in name)


def test_french_command_names_keep_their_accents() -> None:
    fr = catalog("fr")
    assert fr["cmd.settings.name"] == "réglages"
    assert fr["cmd.rules.name"] == "règles"
    names = {key: text for key, text in fr.items()
             if key.startswith("cmd.") and key.endswith(".name")}
    assert names and all(discord_command_name(text) for text in names.values()), names
