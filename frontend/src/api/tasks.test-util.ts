// Tasks as docs/tasks.md shows them, for tests: a weekday task with a done
// run, a one-off that is over, and SCHEDULE_TASK's approval.

import type { Approval } from './approvalTypes'
import { approvalExample } from './approvals.test-util'
import type { Task } from './taskTypes'

export const taskExample: Task = {
  id: 'tk_1',
  prompt: 'Check my inbox folder and summarise what is new',
  conversationId: 'c1',
  at: null,
  rrule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
  cron: '',
  schedule: 'every weekday at 09:00',
  catchUp: true,
  paused: false,
  nextRunAt: '2026-11-30T09:00:00Z',
  lastRun: {
    slot: '2026-11-27T09:00:00Z',
    runId: 'run-7',
    startedAt: '2026-11-27T09:00:01Z',
    status: 'done',
    manual: false,
    result: 'Two new files: notes.md and todo.txt.',
    error: '',
  },
  grants: [{ kind: 'shell', base: 'ls' }],
  createdAt: '2026-11-20T08:00:00Z',
}

export const onceTaskExample: Task = {
  ...taskExample,
  id: 'tk_2',
  prompt: 'Say good night',
  conversationId: 'c2',
  at: '2026-11-27T22:00:00Z',
  rrule: '',
  schedule: 'once, Fri 27 Nov 23:00',
  catchUp: false,
  nextRunAt: null,
  lastRun: null,
  grants: [],
}

/** The agent's SCHEDULE_TASK, asked always (no base, never granted). */
export const taskApprovalExample: Approval = {
  ...approvalExample,
  id: 'ap_6',
  kind: 'task',
  callId: 'call_6',
  toolName: 'SCHEDULE_TASK',
  command: '',
  cwd: '',
  reason: '',
  bases: [],
  grantable: [],
  text: 'Check my inbox folder and summarise',
  schedule: 'every weekday at 09:00',
}
