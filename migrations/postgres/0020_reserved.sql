-- 0020_reserved: the number issue 39 gave entity memory (the `memory` branch), held here so that
-- 0021_watches applies on this branch alone. When both branches merge, the memory branch's 0020
-- replaces this file.
SELECT 1;
