-- 0004_notify_takeover (PostgreSQL): a server hears at once that another server took its task over.
-- A task's NOTIFY exa_orch_task (0001's tasks_status_notified: status or cancel flag changed) now
-- also fires when its lease passes from one holder straight to another (a takeover after the
-- lease lapsed, or a cancel's replay), so the server that held it stops running it at the
-- notification, not at its next heartbeat. Taking a free lease, renewing or releasing one does not
-- fire it: none of them takes a task from a server.

DROP TRIGGER tasks_status_notified ON tasks;

CREATE TRIGGER tasks_status_notified AFTER UPDATE OF status, cancel_requested, lease_owner ON tasks
FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
                   OR OLD.cancel_requested IS DISTINCT FROM NEW.cancel_requested
                   OR (OLD.lease_owner IS NOT NULL AND NEW.lease_owner IS NOT NULL
                       AND OLD.lease_owner <> NEW.lease_owner))
EXECUTE FUNCTION tasks_notify_status();
