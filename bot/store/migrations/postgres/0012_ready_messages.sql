-- 0012: the ready check's direct message to each of its people (issue 53), the same
-- meaning as the SQLite 0012: its channel, its id and its language (NULL: none yet).
ALTER TABLE ready_members ADD COLUMN channel_id bigint;
ALTER TABLE ready_members ADD COLUMN message_id bigint;
ALTER TABLE ready_members ADD COLUMN locale text;
