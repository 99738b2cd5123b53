-- 0010: reserved for another part of issue 53, merged separately; this placeholder keeps
-- the numbering whole until then (delete it when the real 0010 arrives).
SELECT 1;
