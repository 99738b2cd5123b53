-- 0009: "Play now" (issue 53): the queue that seats people from any server or direct
-- messages at one table, its ready checks, the blocks people make, the games people
-- left early, and the leases (one matchmaker across bot processes).

-- A proposed table: its pool (game, seats, rated), whether computers fill its empty
-- seats (then unrated), and its 30 s to answer. status: open while the people answer,
-- then seated (everyone accepted) or failed (a decline, a timeout, someone left). Closed
-- checks stay an hour (the memory of repeated declines), then the queue's sweep deletes
-- them.
CREATE TABLE ready_checks (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game        TEXT    NOT NULL,
    seats       INTEGER NOT NULL CHECK (seats > 0),
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    filled      INTEGER NOT NULL CHECK (filled IN (0, 1)),
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'seated', 'failed')),
    created_at  TEXT    NOT NULL,
    expires_at  TEXT    NOT NULL,
    closed_at   TEXT
);

CREATE INDEX ready_checks_open ON ready_checks (expires_at) WHERE status = 'open';
CREATE INDEX ready_checks_closed ON ready_checks (closed_at) WHERE status <> 'open';

-- Each person of a ready check: their seat and their answer (NULL: none yet; timeout:
-- none in time). entry_id names their queue entry (gone once they are seated or out).
CREATE TABLE ready_members (
    check_id     INTEGER NOT NULL REFERENCES ready_checks (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL CHECK (user_id > 0),
    entry_id     INTEGER NOT NULL,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    answer       TEXT    CHECK (answer IN ('accept', 'decline', 'timeout')),
    answered_at  TEXT,
    PRIMARY KEY (check_id, user_id),
    UNIQUE (check_id, seat)
) WITHOUT ROWID;

CREATE INDEX ready_members_user ON ready_members (user_id, answered_at);

-- One entry per person, or per partner pair (one team), waiting in a pool: its language,
-- the fill-with-computers choice (seconds; NULL: never), where it came from (a guild, or
-- NULL: direct messages), when it joined, the waves it missed, and the ready check it is
-- in (NULL: waiting).
CREATE TABLE queue_entries (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game        TEXT    NOT NULL,
    seats       INTEGER NOT NULL CHECK (seats > 0),
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    locale      TEXT    NOT NULL,
    fill_after  INTEGER CHECK (fill_after > 0),
    guild_id    INTEGER,
    joined_at   TEXT    NOT NULL,
    waves       INTEGER NOT NULL DEFAULT 0 CHECK (waves >= 0),
    check_id    INTEGER REFERENCES ready_checks (id) ON DELETE SET NULL
);

CREATE INDEX queue_entries_pool ON queue_entries (game, seats, rated, joined_at);
CREATE INDEX queue_entries_check ON queue_entries (check_id) WHERE check_id IS NOT NULL;

-- The people of each entry (position 0: who queued, 1: their partner) with their
-- rating when they queued. The primary key is the rule: a person in one entry at a time.
CREATE TABLE queue_people (
    user_id   INTEGER PRIMARY KEY CHECK (user_id > 0),
    entry_id  INTEGER NOT NULL REFERENCES queue_entries (id) ON DELETE CASCADE,
    position  INTEGER NOT NULL CHECK (position IN (0, 1)),
    rating    REAL    NOT NULL,
    UNIQUE (entry_id, position)
) WITHOUT ROWID;

-- Who blocked whom: two people who blocked each other are never paired.
CREATE TABLE blocks (
    blocker     INTEGER NOT NULL CHECK (blocker > 0),
    blocked     INTEGER NOT NULL CHECK (blocked > 0),
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (blocker, blocked),
    CHECK (blocker <> blocked)
) WITHOUT ROWID;

CREATE INDEX blocks_blocked ON blocks (blocked);

-- A person who left a game in play before its end (left: by their own choice; away:
-- out after missed turns), once per table. The queue pairs them with each other first.
CREATE TABLE departures (
    user_id   INTEGER NOT NULL CHECK (user_id > 0),
    table_id  INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    reason    TEXT    NOT NULL CHECK (reason IN ('left', 'away')),
    left_at   TEXT    NOT NULL,
    PRIMARY KEY (user_id, table_id)
) WITHOUT ROWID;

CREATE INDEX departures_time ON departures (left_at);

-- A lease: one holder at a time until expires_at (the matchmaker's, across processes).
-- The epoch goes up by one each time another holder takes it.
CREATE TABLE leases (
    name        TEXT    PRIMARY KEY,
    holder      TEXT    NOT NULL,
    epoch       INTEGER NOT NULL CHECK (epoch > 0),
    expires_at  TEXT    NOT NULL,
    renewed_at  TEXT    NOT NULL
) WITHOUT ROWID;

-- The ratings of a person in every guild (the queue reads one from direct messages;
-- a person's export and erase read them too).
CREATE INDEX ratings_user ON ratings (user_id) WHERE user_id IS NOT NULL;
