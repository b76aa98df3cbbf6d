"""The TaskActor's states and messages: where an actor is in its run, and what it may be told.

`ActorState` is the actor's own state machine (not the task's status); `TRANSITIONS` lists every
move it may make, and `TaskActor._enter` refuses any other. `Message` is what its mailbox takes
(`TaskActor.post`). The module docstring of `exa_orch.runtime.actor` tells the whole life cycle.
"""

from __future__ import annotations

from enum import Enum


class Message(Enum):
    """Mailbox messages. CANCEL wins over SHUTDOWN when both arrive."""

    CANCEL = "cancel"  # the user cancelled: cancel the Exa work, end `cancelled`
    SHUTDOWN = "shutdown"  # the process stops: release the lease, stay non-terminal
    WAKE = "wake"  # end a ctx.sleep early (something the workflow waits for may have changed)


class ActorState(Enum):
    """Where a TaskActor is in its run (not the task's status: see the module docstring)."""

    CREATED = "created"  # built; run() has not begun
    STARTING = "starting"  # checking the claim: a cancel already requested, a known type, valid args
    RUNNING = "running"  # the workflow runs (a first run, or a resume replaying its checkpoints);
    # the only state a cancel or shutdown interrupts with an asyncio cancel
    COMPLETING = "completing"  # the workflow returned: its result is being stored
    FAILING = "failing"  # the task could not start, or the workflow raised: its error is being stored
    PARKING = "parking"  # the workflow needs its owner's input: the task is being set input_required
    BACKING_OFF = "backing_off"  # a transient Exa error ended the run: the task waits, then resumes
    STOPPING = "stopping"  # at a safe point after cancel (hooks, then `cancelled`) or shutdown (release)
    DONE = "done"  # the actor has ended, with its outcome written or (lease lost, database error) not


# Every allowed move, in one place. Any state but CREATED may end at DONE directly: the task was
# taken or deleted, or the database refused a write, so there is nothing for the actor to write.
TRANSITIONS: dict[ActorState, frozenset[ActorState]] = {
    ActorState.CREATED: frozenset({ActorState.STARTING}),
    ActorState.STARTING: frozenset(
        {ActorState.RUNNING, ActorState.FAILING, ActorState.STOPPING, ActorState.DONE}
    ),
    ActorState.RUNNING: frozenset(
        {
            ActorState.COMPLETING,
            ActorState.FAILING,
            ActorState.PARKING,
            ActorState.BACKING_OFF,
            ActorState.STOPPING,
            ActorState.DONE,
        }
    ),
    ActorState.PARKING: frozenset({ActorState.DONE}),
    ActorState.BACKING_OFF: frozenset({ActorState.DONE}),
    ActorState.COMPLETING: frozenset({ActorState.FAILING, ActorState.DONE}),
    ActorState.FAILING: frozenset({ActorState.DONE}),
    ActorState.STOPPING: frozenset({ActorState.DONE}),
    ActorState.DONE: frozenset(),
}
