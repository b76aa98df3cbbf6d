-- 0022: reserved for the memory branch's migration (issue 39); a placeholder so that 0023 follows
-- without a gap on the watches branch. Drop this file when the memory branch's 0022 is merged.
SELECT 1;
