-- 0004: the fencing epochs of the shards, as in PostgreSQL's 0004 (the same
-- version numbers on both backends). SQLite serves one process only (its shards
-- are held by flock'ed files for the life of the process), so it leaves this table
-- empty; it exists so that both schemas have the same shape and version.
CREATE TABLE shard_epochs (
    shard_count     INTEGER NOT NULL CHECK (shard_count > 0),
    shard           INTEGER NOT NULL CHECK (shard >= 0),
    epoch           INTEGER NOT NULL CHECK (epoch > 0),
    owner           TEXT,
    renewed_at      TEXT,
    server_started  TEXT,
    PRIMARY KEY (shard_count, shard)
);
