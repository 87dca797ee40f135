// The demo's `handbook` repository: how Acme works (onboarding, processes, policies), the
// whole repository open, with a summary and instructions as the spec describes.
import { jonas, maya, priya, tom, type DemoCommit } from './demo-commit.ts';

const settings = `{
  "format": 3,
  "role": "root",
  "name": "handbook",
  "prompts": [
    {
      "name": "policy_question",
      "title": "Ask about a policy",
      "description": "Answers a question from the policies as they stand, quoting them.",
      "file": ".vault/prompts/policy-question.md",
      "arguments": [{ "name": "question", "description": "The question, in your words.", "required": true }]
    }
  ],
  "resources": [{ "folder": "policies/", "title": "Policies", "description": "The rules we all keep, as they stand." }],

  // One line for every reader's tool list, at most 120 characters.
  "summary": "How Acme works: onboarding, processes and policies."
}
`;

/** `.vault/prompts/policy-question.md`: the text of the `handbook__policy_question` prompt. */
const policyQuestionPrompt = `Answer this question from Acme's handbook: {question}

Search the policies in handbook (search_notes with path "policies/"), quote the passages that
answer it word for word with the note they come from, and say plainly when no policy covers it.
`;

const readme = `---
summary: Acme's handbook, the start page.
---

# Acme handbook

How we work at Acme. Start with [[first-week|your first week]]; the rules we all keep are
in \`policies/\`, how we get things done in \`processes/\`.

Found something out of date? Change it: every change is a commit, so nothing is lost.
`;

const onboardingReadme = `---
summary: Everything for a new colleague's first weeks.
---

# Onboarding

Read [[first-week]] on your first day, then set up your [[accounts-and-tools]].
`;

const firstDaysV1 = `---
title: Your first days
summary: What happens in your first days at Acme, day by day.
---

# Your first days

## Monday

- 9:30: Maya welcomes you in the kitchen.
- Your laptop is on your desk; set it up with [[accounts-and-tools]].

## Tuesday to Friday

- Sit in on two customer calls.
- Read the [[travel-policy]] and the [[expenses]] policy before your first trip.
`;

const firstWeek = `---
title: Your first week
summary: What happens in your first week at Acme, day by day, and who to ask.
---

# Your first week

Welcome! Your buddy for the first month is named in your welcome mail; ask them anything.

## Monday

- 9:30: Maya welcomes you in the kitchen.
- Your laptop is on your desk; set it up with [[accounts-and-tools]].
- Lunch with the whole team.

## Tuesday to Thursday

- Sit in on two customer calls and one store visit.
- Read how we make and record decisions: [[decision-making]].
- Read the [[travel-policy]] and the [[expenses]] policy before your first trip.

## Friday

- Weekly planning at 10:00 (see [[weekly-planning]]).
- A short talk with Maya: what surprised you this week?

## Who to ask

| Topic | Person |
|---|---|
| Contracts and stores | Priya Natarajan |
| Laptop, accounts, the website | Jonas Keller |
| Marketing and the press | Tom Okafor |
| Everything else | Maya Brenner |
`;

const accounts = `---
title: Accounts and tools
summary: Which accounts you get on day one and how to set them up.
---

# Accounts and tools

1. **Laptop**: log in with the password from your welcome mail and change it at once.
2. **Mail and calendar**: already set up; turn on two-factor sign-in the same day.
3. **GitHub**: ask Jonas to add you to the acme organisation. The handbook and the
   projects are repositories there.
4. **Password manager**: every shared password lives there, never in a note.

See also the [[security]] policy.
`;

const decisionMaking = `---
title: How we make decisions
summary: Who decides what, and how a decision is recorded so that everyone can find it.
---

# How we make decisions

## Who decides

- A project's owner decides within the project's budget.
- Anything above the budget, or that changes a policy, goes to Maya.

## How a decision is recorded

Every decision is a note in the project's \`decisions/\` folder, in the projects repository.
It names **what** was decided, **who** decided, and **when**. A proposal is not a decision:
write it in the meeting notes as a proposal until someone decides it.

## Changing a decision

Do not rewrite the old note. Record a new decision that says which one it replaces.
`;

const weeklyPlanning = `---
title: Weekly planning
summary: The Friday meeting where we plan the next week.
---

# Weekly planning

Fridays, 10:00 to 10:45, everyone.

1. Each project owner: what happened, what is next, what is blocked (3 minutes each).
2. Decisions that are due: who decides, by when.
3. Anything else.

Notes go into the project's \`meetings/\` folder the same day.
`;

const releaseChecklist = `---
title: Release checklist
summary: What to check before anything goes live on the website or in stores.
---

# Release checklist

- [ ] The owner has signed off in writing (a decision note counts).
- [ ] Prices match the current pricing decision.
- [ ] Texts are checked by someone who did not write them.
- [ ] Stores have the material a week before.
- [ ] Rollback plan: who undoes it, and how.
`;

const travelPolicyV1 = `---
title: Travel policy
summary: How to book work trips and what Acme pays for.
valid_from: 2026-01-01
---

# Travel policy

## Booking

Book trips through the shared travel account at least two weeks ahead. Trains over
flights for any trip under five hours.

## What Acme pays

| Item | Limit |
|---|---|
| Train | 2nd class; 1st class for trips over four hours |
| Hotel | 120 € a night, 150 € in Munich and Vienna |
| Per diem | 40 € a day |

Keep every receipt; see [[expenses]].
`;

const travelPolicyV2 = `---
title: Travel policy
summary: How to book work trips and what Acme pays for.
valid_from: 2026-02-15
---

# Travel policy

## Booking

Book trips through the shared travel account at least two weeks ahead. Trains over
flights for any trip under five hours.

## What Acme pays

| Item | Limit |
|---|---|
| Train | 2nd class; 1st class for trips over four hours |
| Hotel | 120 € a night, 150 € in Munich and Vienna |
| Per diem | ~~40 €~~ 45 € a day |

The per diem rose to 45 € on 2026-02-15, decided by Maya Brenner.

Keep every receipt; see [[expenses]].
`;

const expenses = `---
title: Expenses
summary: How to claim money you spent for Acme, and by when.
---

# Expenses

1. Photograph the receipt the day you get it.
2. Claim it in the expenses tool within 30 days.
3. Priya approves claims every Thursday; money arrives with the next salary.

Claims above 500 € need Maya's approval first.
`;

const remoteWork = `---
title: Remote work
summary: When you can work from home, and what we expect when you do.
---

# Remote work

- Work from home up to three days a week; Tuesdays everyone is in the office.
- Be reachable from 10:00 to 16:00.
- Working from another country: up to 20 days a year, agreed with Maya beforehand.
`;

const security = `---
title: Security
summary: The few rules that keep our accounts and customer data safe.
---

# Security

1. Two-factor sign-in on every account that offers it.
2. Shared passwords only in the password manager.
3. Customer data never in notes, chats or mails; only in the customer system.
4. A lost laptop or phone: tell Jonas within the hour.
`;

const policiesReadme = `---
summary: The rules everyone at Acme keeps, quoted as they stand.
---

# Policies

Every policy says since when it is valid. Change a policy only after Maya has decided the
change, and say in the note who decided it and when.
`;

const processesReadme = `---
summary: How we get things done together: decisions, planning, releases.
---

# Processes
`;

const team = `---
title: The team
summary: Who is who at Acme, and what each person looks after.
---

# The team

| Name | Role | Looks after |
|---|---|---|
| Maya Brenner | Managing director | strategy, budget, the launch |
| Jonas Keller | Engineering | the website, sign-up, accounts |
| Priya Natarajan | Operations | stores, contracts, expenses |
| Tom Okafor | Marketing | press, training material, social |
`;

/** The history of `handbook`, oldest first. */
export const handbookCommits: DemoCommit[] = [
  {
    author: maya,
    date: '2026-01-12T10:00:00+01:00',
    message: 'Start the handbook',
    files: {
      '.vault/settings.jsonc': settings,
      '.vault/instructions.md': 'Quote a policy as it stands; never reword one in a summary.\n',
      '.vault/prompts/policy-question.md': policyQuestionPrompt,
      'README.md': readme,
      'onboarding/README.md': onboardingReadme,
      'onboarding/first-days.md': firstDaysV1,
      'policies/README.md': policiesReadme,
      'policies/travel-policy.md': travelPolicyV1,
      'processes/README.md': processesReadme,
      'processes/decision-making.md': decisionMaking,
    },
  },
  {
    author: priya,
    date: '2026-01-20T15:10:00+01:00',
    message: 'Add the expenses and remote work policies, and the team page',
    files: { 'policies/expenses.md': expenses, 'policies/remote-work.md': remoteWork, 'people/team.md': team },
  },
  {
    author: jonas,
    date: '2026-02-03T09:30:00+01:00',
    message: 'Accounts, security and the release checklist',
    files: { 'onboarding/accounts-and-tools.md': accounts, 'policies/security.md': security, 'processes/release-checklist.md': releaseChecklist },
  },
  {
    author: priya,
    date: '2026-02-17T12:00:00+01:00',
    message: 'Per diem rises to 45 € from 2026-02-15\n\nDecided by Maya Brenner on 2026-02-13.',
    files: { 'policies/travel-policy.md': travelPolicyV2 },
  },
  {
    author: tom,
    date: '2026-03-02T11:20:00+01:00',
    message: 'Rename first-days to first-week',
    renames: { 'onboarding/first-days.md': 'onboarding/first-week.md' },
    files: {},
  },
  {
    author: tom,
    date: '2026-03-02T11:25:00+01:00',
    message: 'Onboarding covers the whole first week\n\nAdded Friday, the weekly planning and who to ask.',
    files: { 'onboarding/first-week.md': firstWeek, 'processes/weekly-planning.md': weeklyPlanning },
  },
];
