# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""A checker of histories of a key-value configuration, key by key, as linearizable registers (the model of
Wing and Gong's search, the one Jepsen's Knossos uses), for it/tools/chaos.

An operation on one key is a write of a value, a delete (a write of None) or a read that saw a value (None:
absent). Each has the time it was invoked and, when an answer came, the time it completed, and an outcome:

- "ok": answered with success. A write or delete took effect at one moment between its invocation and its
  answer; a read saw the register at one moment between them.
- "fail": refused (an answer that says nothing was done). It never takes effect.
- "info": no answer, or one that does not say whether it was done (a timeout, a lost connection, a 5xx).
  It takes effect at one moment after its invocation, or never.

The history of a key is linearizable when there is one order of the operations that took effect, each at a
moment inside its window, in which every read saw the last write before it. The final state read after the run
(every fault healed) is a read like any other. A refused write whose value is seen has therefore taken effect:
the checker reports it.
"""
from dataclasses import dataclass, field
import math

OK, FAIL, INFO = "ok", "fail", "info"


@dataclass
class Op:
    process: int
    kind: str            # "write" (value None: a delete) or "read"
    value: object
    invoked: float
    completed: float      # math.inf when no answer came
    outcome: str
    index: int = field(default=0)

    def __str__(self):
        what = f"{self.kind} {self.value!r}"
        end = "..." if math.isinf(self.completed) else f"{self.completed:.3f}"
        return f"#{self.index} p{self.process} {what} [{self.invoked:.3f}, {end}] {self.outcome}"


@dataclass
class Verdict:
    key: object
    valid: bool
    reason: str = ""
    ops: list = field(default_factory=list)


def check_key(key, ops, initial=None, limit=5_000_000):
    """Whether the operations on one key are linearizable, starting from `initial`. A depth-first search over the
    order in which the operations take effect, pruned by the states (operations done, value) already explored."""
    ops = [op for op in ops if op.outcome != FAIL and not (op.kind == "read" and op.outcome != OK)]
    ops = sorted(ops, key=lambda op: op.invoked)
    for i, op in enumerate(ops):
        op.index = i
    must = sum(1 << op.index for op in ops if op.outcome == OK)
    n = len(ops)

    def candidates(done, value):
        """The operations that can take effect next. `now`, the moment the last one took effect, is at least the
        latest invocation among those done. An acknowledged operation not done yet must take effect before it
        completes, so the next one is invoked before the earliest such completion (the horizon); an unanswered
        one can take effect only until its bound, and may never take effect at all."""
        now = max((ops[i].invoked for i in range(n) if done >> i & 1), default=-math.inf)
        live = [i for i in range(n) if not done >> i & 1
                and (must >> i & 1 or ops[i].completed >= now)]
        horizon = min((ops[i].completed for i in live if must >> i & 1), default=math.inf)
        out = []
        for i in live:
            op = ops[i]
            if op.invoked > horizon:
                break
            if op.kind == "read":
                if op.value == value:
                    out.append((done | 1 << i, value))
            else:
                out.append((done | 1 << i, op.value))
        return out

    seen = set()
    stack = [iter([(0, initial)])]
    steps = 0
    while stack:
        state = next(stack[-1], None)
        if state is None:
            stack.pop()
            continue
        done, value = state
        if done & must == must:
            return Verdict(key, True)
        if state in seen:
            continue
        seen.add(state)
        steps += 1
        if steps > limit:
            raise RuntimeError(f"key {key!r}: more than {limit} search steps")
        stack.append(iter(candidates(done, value)))
    return Verdict(key, False, "no order of the acknowledged operations explains the reads", ops)


def check(history, initial=None):
    """Checks every key of `history` (a dict: key -> list of Op, the refused ones included). A value written
    only by refused writes and seen by a read is reported as such first."""
    verdicts = []
    for key, ops in sorted(history.items(), key=lambda item: str(item[0])):
        refused_values = {op.value for op in ops if op.kind == "write" and op.outcome == FAIL}
        other_values = {op.value for op in ops if op.kind == "write" and op.outcome != FAIL} | {initial}
        resurrected = [op for op in ops if op.kind == "read" and op.outcome == OK
                       and op.value in refused_values - other_values]
        if resurrected:
            verdicts.append(Verdict(key, False, "a refused write's value was read", resurrected))
            continue
        verdicts.append(check_key(key, ops, initial))
    return verdicts
