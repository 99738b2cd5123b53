-- 0012: the ready check's direct message to each of its people (issue 53): its channel,
-- its id and the language it was written in, so that what came of the check (the table
-- seated, back in the queue, out) edits that message, through a restart too. NULL: no
-- message yet (or Discord refused the DM).
ALTER TABLE ready_members ADD COLUMN channel_id INTEGER;
ALTER TABLE ready_members ADD COLUMN message_id INTEGER;
ALTER TABLE ready_members ADD COLUMN locale TEXT;
