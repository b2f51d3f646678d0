"""Row I/O for the match aggregate: the locked read and the write of one change.

Every service call reads one match under a row lock and writes back what it
changed. A move is the request made hundreds of times per match, and built
through the ORM its SQL cost more than the rules themselves (docs/benchmarks.md),
so the statements are written out here with :class:`nard_site.rows.RowCodec`.
Services decide *what* changes; this module only moves rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model

from accounts.models import User
from games.models import Event, Game, Match, Turn
from nard_site.rows import RowCodec, Statement, Values, batch, execute_together

MATCHES, USERS, GAMES, TURNS, EVENTS = (RowCodec(m) for m in (Match, User, Game, Turn, Event))
CODECS: dict[type[Model], RowCodec[Any]] = {Match: MATCHES, Game: GAMES, Turn: TURNS}


def _read_sql() -> tuple[str, str]:
    """The lock statement, and the read of match, players, game and turn after it."""
    qn = connection.ops.quote_name
    lock = (f"SELECT 1 FROM {qn(MATCHES.table)} WHERE {qn('id')} = %s"
            + (" FOR UPDATE" if connection.features.has_select_for_update else ""))
    read = (
        f"SELECT {MATCHES.select_list('m')}, {USERS.select_list('w')}, "
        f"{USERS.select_list('b')}, {USERS.select_list('i')}, {GAMES.select_list('g')}, "
        f"{TURNS.select_list('t')} FROM {qn(MATCHES.table)} m"
        f" LEFT JOIN {qn(USERS.table)} w ON w.{qn('id')} = m.{qn('white_id')}"
        f" LEFT JOIN {qn(USERS.table)} b ON b.{qn('id')} = m.{qn('black_id')}"
        f" LEFT JOIN {qn(USERS.table)} i ON i.{qn('id')} = m.{qn('invited_id')}"
        f" LEFT JOIN {qn(GAMES.table)} g ON g.{qn('id')} = m.{qn('current_game_id')}"
        f" LEFT JOIN {qn(TURNS.table)} t ON t.{qn('id')} = g.{qn('current_turn_id')}"
        f" WHERE m.{qn('id')} = %s")
    return lock, read


LOCK_SQL, READ_SQL = _read_sql()


Loaded = dict[int, Values]
"""The values each row of a read was loaded with, by ``id(row)``: what a later write
compares against, held by the caller (the unit of work), never by the rows."""


def lock_match(match_id: int) -> tuple[Match, Loaded] | None:
    """Lock the match row, then read it with its players, current game and turn.

    Call inside a transaction. The read is a second statement on purpose: under
    READ COMMITTED, rows joined to a ``FOR UPDATE`` row that waited for the lock
    may be stale, while a statement issued after the lock sees what the previous
    holder committed. Both go in one round trip (:func:`batch`).
    """
    with batch(), connection.cursor() as locker, connection.cursor() as reader:
        locker.execute(LOCK_SQL, [match_id])
        reader.execute(READ_SQL, [match_id])
        row = reader.fetchone()
    if row is None:
        return None
    loaded: Loaded = {}
    return _aggregate(row, loaded), loaded


def read_match(match_id: int) -> Match | None:
    """The match with its players, current game and turn, unlocked (one statement)."""
    with connection.cursor() as cursor:
        cursor.execute(READ_SQL, [match_id])
        row = cursor.fetchone()
    return None if row is None else _aggregate(row, {})


def _aggregate(row: Sequence[Any], loaded: Loaded) -> Match:
    def load(codec: RowCodec[Any], offset: int) -> Any:
        found = codec.load_with_values(row, offset)
        if found is None:
            return None
        obj, values = found
        loaded[id(obj)] = values
        return obj

    match = load(MATCHES, 0)
    assert match is not None
    offset = MATCHES.width
    for name in ("white", "black", "invited"):
        user = USERS.load(row, offset)
        offset += USERS.width
        if user is not None and match.white_id == user.pk and name == "black":
            user = match.white  # hotseat: one account, one object
        setattr(match, name, user)
    game = load(GAMES, offset)
    if game is not None:
        game.match = match
        game.current_turn = load(TURNS, offset + GAMES.width)
        if game.current_turn is not None:
            game.current_turn.game = game
    match.current_game = game
    return match


EVENTS_PER_STATEMENT = 1000  # 5 parameters each, far below PostgreSQL's 65,535
INSERT_ORDER: tuple[type[Model], ...] = (Match, Game, Turn)
"""New rows go in in this order, so each one's foreign keys can point at the ones before."""


def save(rows: Sequence[Model], events: Sequence[Event], loaded: Loaded | None = None,
         extra: Sequence[Statement] = ()) -> None:
    """Write one change: new rows are inserted (in :data:`INSERT_ORDER`), then the
    changed rows and the events are written by one statement (:func:`execute_together`),
    so a move costs one round trip (a new row, whose key the others need, one more).

    ``loaded`` holds the values the rows were read with (:func:`lock_match`); a row
    not in it is written whole. ``extra``: more data-changing statements of the same
    change (the rating update), sent with the others. Nothing is remembered
    afterwards: a retry after a failure simply writes again. Call inside the
    transaction that locked the match.
    """
    loaded = loaded or {}
    unique = list({id(row): row for row in rows}.values())
    new = sorted((r for r in unique if r._state.adding), key=lambda r: INSERT_ORDER.index(type(r)))
    written: Loaded = {}
    statements, updated = [], []
    with connection.cursor() as cursor:
        for row in new:
            codec = CODECS[type(row)]
            codec.insert(cursor, [row])
            written[id(row)] = codec.raw_values(row)
        for row in unique:
            codec = CODECS[type(row)]
            if id(row) in written:  # inserted above: only keys to rows inserted after it
                statement = codec.update_statement(row, written[id(row)], compare_json=True)
            else:
                statement = codec.update_statement(row, loaded.get(id(row)))
            if statement is not None:
                statements.append(statement)
                updated.append(row)
        if len(events) <= EVENTS_PER_STATEMENT:
            statements += [EVENTS.insert_statement(events)] if events else []
        else:  # a whole imported match: its events on their own
            for start in range(0, len(events), EVENTS_PER_STATEMENT):
                chunk = events[start:start + EVENTS_PER_STATEMENT]
                EVENTS.insert(cursor, chunk, returning=False)
        counts = execute_together(cursor, [*statements, *extra])
    for row, count in zip(updated, counts, strict=False):
        if count != 1:
            raise type(row).DoesNotExist(  # type: ignore[attr-defined]
                f"{type(row).__name__} {row.pk} is gone.")
