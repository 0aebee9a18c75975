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
from dataclasses import dataclass, field, replace
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
    member: int = field(default=0)     # the member it was sent to, where known

    def __str__(self):
        what = f"{self.kind} {self.value!r}"
        end = "..." if math.isinf(self.completed) else f"{self.completed:.3f}"
        via = f" via member {self.member}" if self.member else ""
        return f"#{self.index} p{self.process} {what} [{self.invoked:.3f}, {end}] {self.outcome}{via}"


@dataclass
class Verdict:
    key: object
    valid: bool
    reason: str = ""
    ops: list = field(default_factory=list)


def check_key(key, ops, initial=None, limit=50_000_000):
    """Whether the operations on one key are linearizable, starting from `initial`.

    The search of Wing and Gong as Lowe improved it (and Porcupine implements it): every operation's invocation
    and answer are entries of one list in time order; the search takes the earliest operation it can make take
    effect next, that is one invoked before the first answer still in the list, removes its two entries and goes
    on; when it reaches an answer whose operation has not taken effect it backtracks. States (the operations
    done, the value) already explored are not explored again. An unanswered operation may never take effect:
    when the search reaches the end of its window without it, it is dropped.

    Before the search, unanswered writes are settled where the history settles them (values are unique): one
    whose value nobody read may be taken as never done (were it done, no read saw it, so leaving it out changes
    no read); one whose value was read was done, before the earliest answer of such a read. Only unanswered
    deletes stay optional. Each step is then constant work, and the search is close to linear in the history
    for a register (a 40-minute run of three members: seconds a key)."""
    ops = _settled(ops)
    n = len(ops)
    if n == 0:
        return Verdict(key, True)
    head = 2 * n                                 # entry 2i: op i is invoked; 2i + 1: op i answers (or its bound)
    order = sorted(range(2 * n), key=lambda e: (ops[e >> 1].completed if e & 1 else ops[e >> 1].invoked, e & 1))
    nxt = [0] * (2 * n + 1)
    prv = [0] * (2 * n + 1)
    chain = [head] + order + [head]
    for a, b in zip(chain, chain[1:]):
        nxt[a], prv[b] = b, a

    def lift(i):
        for e in (2 * i, 2 * i + 1):
            nxt[prv[e]], prv[nxt[e]] = nxt[e], prv[e]

    def unlift(i):
        for e in (2 * i + 1, 2 * i):
            nxt[prv[e]] = prv[nxt[e]] = e

    reads = [op.kind == "read" for op in ops]
    values = [op.value for op in ops]
    optional = [op.outcome != OK for op in ops]
    cache = set()
    stack = []                                   # (op, its entry, value before, dropped rather than done)
    done, value, e = 0, initial, nxt[head]
    steps, deepest, stuck = 0, -1, None
    while nxt[head] != head:
        steps += 1
        if steps > limit:
            raise RuntimeError(f"key {key!r}: more than {limit} search steps")
        i = e >> 1
        if not e & 1:
            if not reads[i] or values[i] == value:
                state = (done | 1 << i, values[i])
                if state not in cache:
                    cache.add(state)
                    stack.append((i, e, value, False))
                    lift(i)
                    done, value = state
                    e = nxt[head]
                    continue
            e = nxt[e]
            continue
        if optional[i]:
            stack.append((i, e, value, True))
            lift(i)
            done |= 1 << i
            e = nxt[e]                           # a removed entry keeps its links
            continue
        if len(stack) > deepest:
            deepest, stuck = len(stack), (i, value)
        while True:
            if not stack:
                return _refusal(key, ops, stuck)
            j, ej, before, dropped = stack.pop()
            unlift(j)
            done &= ~(1 << j)
            value = before
            if not dropped:
                e = nxt[ej]
                break
    return Verdict(key, True)


def _settled(ops):
    """The operations the search needs, in invocation order: refused writes and unanswered reads say nothing; an
    unanswered write of a value nobody read is left out; one whose value was read is done, before the first answer
    of such a read."""
    first_read = {}
    for op in ops:
        if op.kind == "read" and op.outcome == OK and op.value is not None:
            first_read[op.value] = min(first_read.get(op.value, math.inf), op.completed)
    out = []
    for op in ops:
        if op.outcome == FAIL or (op.kind == "read" and op.outcome != OK):
            continue
        if op.kind == "write" and op.outcome == INFO and op.value is not None:
            if op.value not in first_read:
                continue
            op = replace(op, completed=min(op.completed, first_read[op.value]), outcome=OK)
        out.append(op)
    out.sort(key=lambda op: op.invoked)
    for i, op in enumerate(out):
        op.index = i
    return out


def _refusal(key, ops, stuck):
    """The verdict for a history no order explains, naming where the longest partial order stopped: the operation
    that could not take effect in time, the value the register held, and the operations around it."""
    i, held = stuck
    op = ops[i]
    around = [other for other in ops if other.invoked <= op.completed and other.completed >= op.invoked - 15]
    return Verdict(key, False, f"no order of the acknowledged operations explains the reads: #{i} ({op}) could "
                   f"not take effect before its answer; the register held {held!r} there", around[-40:])


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
