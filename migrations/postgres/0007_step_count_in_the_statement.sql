-- 0007_step_count_in_the_statement: a checkpoint bumps its task's step counter in its own
-- statement, not through a trigger.
-- The checkpoint (store/tasks.py SAVE_STEP_PG) now updates the task's row in a data-modifying CTE
-- that also locks the row and checks the lease, and takes the new count as the step's seq. The
-- trigger did the same update a second way, after a separate row lock: dropping it saves a row
-- lock and a PL/pgSQL call per checkpoint (~12% of a checkpoint's server time). Servers whose code
-- predates this migration refuse the database (it is newer than they are), so none of them can
-- save a step here without the counter.
DROP TRIGGER task_steps_counted ON task_steps;
DROP FUNCTION task_steps_count();
