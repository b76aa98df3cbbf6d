-- 0022 (PostgreSQL): as ../0022_reserved_memory.sql, a placeholder for the memory branch's 0022.
SELECT 1;
