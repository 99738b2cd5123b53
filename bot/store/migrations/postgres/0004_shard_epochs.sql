-- 0004: fencing epochs of the shards (issue 21, "when the database blinks").
--
-- A process that holds a shard (a session advisory lock, see lock_shards) also owns
-- its row here: each time a process takes the shard the epoch goes up by one, and
-- its writes to the shard's tables go through only while the stored epoch is still
-- its own. A process whose lock session died (a database restart, a terminated
-- backend) therefore cannot overwrite what the next owner wrote.
--
-- owner is a token the repository draws when it is made (NULL once it let the shard
-- go cleanly); renewed_at is the last time the owner proved it held the shard, and
-- server_started the start time of the PostgreSQL server it proved it on: after a
-- database restart the previous owner gets its shard back first, unless its lease
-- (renewed_at + lease) ran out.
CREATE TABLE shard_epochs (
    shard_count     integer     NOT NULL CHECK (shard_count > 0),
    shard           integer     NOT NULL CHECK (shard >= 0),
    epoch           bigint      NOT NULL CHECK (epoch > 0),
    owner           text,
    renewed_at      timestamptz,
    server_started  timestamptz,
    PRIMARY KEY (shard_count, shard)
);
