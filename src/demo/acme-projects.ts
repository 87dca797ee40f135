// The demo's `projects` repository: one folder per project, configured with `.vault/` exactly
// as the spec describes Acme's (settings, instructions, the `decision` type, create_decision),
// and a special tool for each other engine: advance_proposal (transition), log_launch (append),
// and (acme-care-tools.ts) check_notes (health), whats_new (changes), undo.
import { careToolsCommit } from './acme-care-tools.ts';
import { jonas, maya, priya, tom, type DemoCommit } from './demo-commit.ts';

/** `.vault/settings.jsonc` of Acme's `projects`, word for word as the spec shows it ("Settings"). */
export const projectsSettings = `{
  "format": 3,
  "role": "root",
  "name": "projects",
  "prompts": [],
  "resources": [],

  // One line for every reader's tool list, at most 120 characters.
  "summary": "One folder per project: plans, decisions and meeting notes.",

  // The folders that belong to the vault; "/" opens the whole repository.
  "folders": ["active/", "archive/"],

  // Where a note names its type, and where it sums itself up.
  "typeField": "type",
  "summaryField": "summary",

  // A note without a type: a "hint" or an "error".
  "untyped": "hint"
}
`;

/**
 * `.vault/settings.jsonc` of `projects` once it offers a prompt and resources (issue 15): the
 * spec's settings with `prompts` and `resources` filled in (README "Prompts and resources").
 */
export const projectsSettingsWithPrompts = projectsSettings.replace(
  `  "prompts": [],
  "resources": [],
`,
  `  // MCP prompts: the text is the body of the file, {argument} replaced by the value given.
  "prompts": [
    {
      "name": "decision_brief",
      "title": "Brief the open decisions",
      "description": "A short brief of one project's decisions: what is decided, what is still open.",
      "file": ".vault/prompts/decision-brief.md",
      "arguments": [
        { "name": "project", "description": "The project's folder under active/, e.g. launch.", "required": true },
        { "name": "audience", "description": "Who reads the brief; the project team when not given." }
      ]
    }
  ],
  // MCP resources: one note, or every note of a folder (a resource template).
  "resources": [
    { "note": "active/launch/plan.md", "title": "Launch plan", "description": "The plan of the launch, as it stands." },
    { "folder": "active/launch/decisions/", "title": "Launch decisions", "description": "Every decision of the launch." }
  ],
`,
);

/** `.vault/prompts/decision-brief.md`: the text of the `projects__decision_brief` prompt. */
export const decisionBriefPrompt = `Read the decisions of the project "{project}" in projects (list_notes with
path "active/{project}/decisions/", then read_note on each) and write a brief of them:

1. What is decided, each with who decided it and when.
2. What is still open, and who should decide it.

Keep it under a page and link each decision as [[its note]]. Write it for this audience (the
project team when none is named): {audience}
`;

/** `.vault/types/decision.md`, as the spec shows it ("Note types"). */
export const decisionType = `---
places:
  - "active/{project:slug}/decisions/{title:slug}.md"
frontmatter:
  type: object
  properties:
    title:
      type: string
      description: The decision, in one line.
    decided_by:
      type: string
      description: Who made it.
    decided_on:
      type: string
      description: When, as YYYY-MM-DD.
  required:
    - title
    - decided_by
    - decided_on
---
# {title}

{body}
`;

/** `.vault/tools/create_decision.md`, as the spec shows it ("Special tools"). */
export const createDecisionTool = `---
engine: create
type: decision
title: Record a decision
---
Records one decision of a project: what was decided, by whom, and when.
Refuses to overwrite a decision that already exists under the same title.
`;

/** `.vault/types/proposal.md`: a proposal moves draft → review → accepted or rejected (the transition tool). */
export const proposalType = `---
places:
  - "active/{project:slug}/proposals/{title:slug}.md"
frontmatter:
  type: object
  properties:
    title:
      type: string
      description: The proposal, in one line.
    owner:
      type: string
      description: Who carries it.
    status:
      type: string
      enum: [draft, review, accepted, rejected]
      description: Where it stands.
    decided_by:
      type: string
      description: Who accepted or rejected it.
  required:
    - title
    - owner
---
# {title}

{body}
`;

/** `.vault/tools/advance_proposal.md`: the transition engine, guarded. */
export const advanceProposalTool = `---
engine: transition
type: proposal
field: status
steps:
  draft: [review]
  review: [accepted, rejected, draft]
require:
  accepted: [decided_by]
  rejected: [decided_by]
guard: true
title: Move a proposal on
fields:
  decided_by: Who accepted or rejected it, by name.
---
Moves a proposal one step: from draft to review, and from review to accepted or rejected
(or back to draft). Accepting or rejecting names who decided.
`;

/** `.vault/tools/log_launch.md`: the append engine on the launch log, guarded (append-only). */
export const logLaunchTool = `---
engine: append
note: active/launch/log.md
section: Log
entry: "- {date} {person}: {text}"
guard: true
title: Add to the launch log
---
Adds one dated line, signed with your name, to the launch log. Entries are never changed
afterwards; write a new one to correct an older one.
`;

const launchLog = `---
title: Launch log
summary: What happened in the launch project, one dated line each, newest last.
---

# Launch log

Add a line with the log_launch tool; lines already here are never changed.

## Log

- 2026-02-09 Maya Brenner: Kickoff held; owners agreed.
- 2026-02-23 Priya Natarajan: Pricing review done; 36 stores signed.
`;

const loyaltyCard = `---
type: proposal
title: A loyalty card for subscribers
owner: Tom Okafor
status: review
summary: Stamp cards in the stores for subscribers, from the launch on.
---
# A loyalty card for subscribers

Every subscriber gets a stamp card; ten stamps give a free month.
`;

const rootReadme = `# Acme projects

This repository holds Acme's project work: plans, decisions and meeting notes, one folder
per project. Running projects live in \`active/\`, finished ones move to \`archive/\`.

The \`.vault/\` folder configures how Major Vault works here: the note types, the special
tools, and what every assistant is told about this repository. Only the admins change it.

Anything outside \`active/\` and \`archive/\` (this file, the scripts) is not part of the vault.
`;

const exportScript = `#!/bin/sh
# Exports every decision of a project as one CSV line each, for the quarterly report.
# Usage: scripts/export-decisions.sh launch
set -eu
project="\${1:?name a project folder under active/}"
for note in active/"$project"/decisions/*.md; do
  [ "$(basename "$note")" = README.md ] && continue
  title=$(sed -n 's/^title: //p' "$note" | head -n 1)
  by=$(sed -n 's/^decided_by: //p' "$note" | head -n 1)
  on=$(sed -n 's/^decided_on: //p' "$note" | head -n 1)
  printf '%s,%s,%s\\n' "$on" "$by" "$title"
done
`;

const pilotReadme = `---
summary: The 2025 pilot with three partner stores, finished in November 2025.
---

# 2025 pilot

A twelve-week pilot of the subscription with three partner stores in Hamburg. It ended on
2025-11-14. What we learnt is in [[retrospective]]; the plan for the full launch builds on it.
`;

const pilotRetrospective = `---
title: Pilot retrospective
summary: What the 2025 pilot taught us about pricing, stores and onboarding.
status: final
---

# Pilot retrospective

Held on 2025-11-20 with everyone who worked on the pilot.

## What went well

- Three stores signed up within two weeks; all three stayed to the end.
- Onboarding a store took 40 minutes on average, down from 2 hours in the first week.
- 18 % of trial customers converted to a paid plan.

## What did not

- The trial price of 39 € was too low to cover support; every store asked for more material.
- Our stock forecast missed by a third in week 6 (a holiday we had not planned for).

## What we carry into the launch

1. Price the trial so that support is covered (see the launch plan's assumptions).
2. A printed quick-start card for every store.
3. Plan the weeks around public holidays.
`;

const archiveReadme = `---
summary: Finished projects, kept as they were when they ended.
---

# Archive

A project moves here when it ends. Its notes stay as they were; add a retrospective
instead of rewriting them.
`;

const launchReadme = `---
summary: The spring 2026 launch of the subscription in stores across Germany and Austria.
---

# Launch

Everything about the spring launch: the [[plan]], the [budget](budget.md), the
[decisions](decisions/README.md) and the notes of every meeting in \`meetings/\`.

Owner: Maya Brenner. Weekly check-in on Mondays at 10:00.
`;

const launchPlanV1 = `---
title: Launch plan
summary: How and when the subscription launches in stores, and what we still assume.
status: draft
owner: Maya Brenner
tags:
  - launch
  - plan
---

# Launch plan

The subscription leaves the pilot and launches in partner stores. This plan says what
has to happen, in which order, and what we are still only assuming.

## Goals

- Launch in stores in Germany by the end of April 2026.
- 30 stores in the first month.
- Break even on support costs per store within three months.

## Timeline

| Phase | When | Who |
|---|---|---|
| Store contracts | February | Priya |
| Training material | March | Tom |
| Launch | April | everyone |

## Assumptions

| Assumption | Value | Grade | Source |
|---|---|---|---|
| Stores carrying the subscription at launch | 34 stores | 2 vermutet | store pipeline |
| Trial price per month | 49 € | 2 vermutet | pilot retrospective |
| Conversion from trial to paid | 18 % | 3 plausibel | pilot retrospective |

## Risks

- Stores sign later than planned (1 open).
- The training material is not translated for Austria in time.
`;

const launchPlanV2 = `---
title: Launch plan
summary: How and when the subscription launches in stores, and what we still assume.
status: agreed
owner: Maya Brenner
tags:
  - launch
  - plan
---

# Launch plan

The subscription leaves the pilot and launches in partner stores. This plan says what
has to happen, in which order, and what we are still only assuming. The decisions behind
it are in [[decisions/README|the decision log]]; the money is in the [budget](budget.md).

## Goals

- Launch in stores in Germany and Austria on 2026-04-21 (see [[pick-a-date]]).
- 30 stores in the first month.
- Break even on support costs per store within three months.

## Timeline

| Phase | When | Who |
|---|---|---|
| Store contracts | until 2026-03-13 | Priya |
| Training material | until 2026-04-03 | Tom |
| Press preview | 2026-04-14 | Tom |
| Launch | 2026-04-21 | everyone |

## Assumptions

| Assumption | Value | Grade | Source |
|---|---|---|---|
| Stores carrying the subscription at launch | ~~34 stores~~ 36 stores | 4 bestätigt | [[2026-02-23 pricing review]] |
| Trial price per month | 49 € | 2 vermutet | [[pricing-model\\|pricing decision]] |
| Conversion from trial to paid | 18 % | 3 plausibel | [[retrospective]] |
| Partners lift the press embargo on launch day | yes | 1 offen | [[open-questions]] |

## Risks

- Stores sign later than planned (1 open).
- The training material is not translated for Austria in time.
- Our stock forecast misses a public holiday again, as in the pilot (2 vermutet).
`;

const launchBudget = `---
title: Launch budget
summary: What the launch may cost, per item, and who approves changes.
status: approved
approved_by: Maya Brenner
approved_on: 2026-02-20
---

# Launch budget

Approved by Maya Brenner on 2026-02-20. Changes above 2,000 € need her approval again.

| Item | Budget | Spent so far |
|---|---:|---:|
| Store training material | 12,000 € | 4,300 € |
| Printed quick-start cards | 3,500 € | 0 € |
| Launch event | 8,000 € | 1,200 € |
| Paid social | 15,000 € | 0 € |
| **Total** | **38,500 €** | **5,500 €** |

The event budget was ~~10,000 €~~ 8,000 € after the [[2026-02-23 pricing review]].
`;

const decisionsReadme = `---
summary: Decisions for the launch, one note per decision.
---

# Launch

Each note records one decision: what was decided, by whom, and when.
Open questions stay in \`open-questions.md\` until they are decided.
`;

const pickADate = `---
type: decision
title: Pick a date
decided_by: Maya Brenner
decided_on: 2026-02-10
summary: The launch is on Tuesday, 2026-04-21.
---
# Pick a date

We launch on **Tuesday, 2026-04-21**.

## Why

- Easter Monday is 2026-04-06; stores asked for two clear weeks after it.
- A Tuesday gives the stores a quiet Monday to set up.
- The press preview can run a week earlier, on 2026-04-14.

## Considered

- 2026-04-07, right after Easter: refused by all three pilot stores.
- 2026-05-05: too close to the summer pause of the trade press.

Discussed in the [[2026-02-09 kickoff]].
`;

const pricingModel = `---
type: decision
title: Pricing model
decided_by: Priya Natarajan
decided_on: 2026-02-23
summary: A 49 € monthly trial for the first three months, then 59 € a month.
---
# Pricing model

A trial at **49 € a month** for the first three months, then **59 € a month**. Stores
keep 15 % of every subscription they sell.

## Why

- The pilot's 39 € did not cover support (see [[retrospective]]).
- 49 € is still below the two competitors we compared (55 € and 64 €).

## Still open

Whether Austrian stores get the same share is in [[open-questions]].

Decided in the [[2026-02-23 pricing review]].
`;

const launchMarkets = `---
type: decision
title: Launch markets
decided_by: Maya Brenner
decided_on: 2026-03-09
summary: Germany and Austria at launch; Switzerland in autumn at the earliest.
---
# Launch markets

We launch in **Germany and Austria**. Switzerland follows in autumn 2026 at the earliest,
once we have a partner for payments in Swiss francs.

- Austria: the same material as Germany; prices in euros.
- Switzerland: not before 2026-09; Priya checks payment partners.
`;

const openQuestions = `---
title: Open questions
summary: What is not decided yet for the launch, and who finds out.
---

# Open questions

| Question | Who finds out | By |
|---|---|---|
| Do Austrian stores keep 15 % as well? | Priya | 2026-03-20 |
| Do partners lift the press embargo on launch day? | Tom | 2026-04-01 |
| ~~Launch on 2026-04-07?~~ Decided: [[pick-a-date]] | Maya | done |

When a question is decided, record it with create_decision and strike it through here.
`;

const kickoff = `---
title: 2026-02-09 kickoff
summary: Kickoff of the launch project; the date and the owners were agreed.
date: 2026-02-09
attendees:
  - Maya Brenner
  - Jonas Keller
  - Priya Natarajan
  - Tom Okafor
---

# Kickoff, 2026-02-09

## Agreed

- Maya owns the launch; Priya the store contracts; Tom the training material; Jonas the
  sign-up flow.
- The launch date is decided by Maya by Wednesday (it became [[pick-a-date]]).

## Timeline we start from

![[plan#Timeline]]

## Action items

- [ ] Priya: list every store in the pipeline with its contract status.
- [ ] Tom: a first draft of the quick-start card.
- [x] Jonas: check the sign-up flow handles Austrian addresses.
`;

const pricingReview = `---
title: 2026-02-23 pricing review
summary: The trial price was set at 49 €, and the store count at launch corrected to 36.
date: 2026-02-23
attendees:
  - Maya Brenner
  - Priya Natarajan
---

# Pricing review, 2026-02-23

## Numbers we looked at

- Support cost per store in the pilot: 410 € a month.
- Competitors: 55 € and 64 € a month.
- Stores with a signed contract: 36 (the plan said 34).

## Outcome

Priya decided the [[pricing-model]]. The event budget goes down to 8,000 € so that the
printed cards fit in the [budget](../budget.md).

Proposal, **not decided**: a yearly plan at 540 €. Tom will ask three stores what they think.
`;

const overviewBase = `filters:
  and:
    - file.inFolder("active/launch/decisions")
    - 'type == "decision"'
properties:
  note.decided_by:
    displayName: Decided by
  note.decided_on:
    displayName: Decided on
views:
  - type: table
    name: Decisions
    order:
      - file.name
      - decided_by
      - decided_on
      - summary
    sort:
      - property: decided_on
        direction: DESC
  - type: table
    name: By Maya
    filters:
      and:
        - 'decided_by == "Maya Brenner"'
    order:
      - file.name
      - decided_on
`;

const relaunchReadme = `---
summary: The new acme.example website, live before the launch.
---

# Website relaunch

The new website must be live before the [launch](../launch/README.md): a page per store,
and sign-up for the subscription. Jonas leads it.
`;

const relaunchPlan = `---
title: Website relaunch plan
summary: Pages, owners and dates for the new website.
status: in progress
owner: Jonas Keller
---

# Website relaunch plan

## Pages

| Page | Owner | Status |
|---|---|---|
| Home | Tom | draft |
| Store finder | Jonas | in progress |
| Sign-up | Jonas | not started |

## Dates

- Content freeze: 2026-04-03.
- Live: 2026-04-14, with the press preview of the launch.

The store finder needs the list of stores from Priya's contracts (2 vermutet: ready by mid-March).
`;

const chooseACms = `---
type: decision
title: Choose a CMS
decided_by: Jonas Keller
decided_on: 2026-03-04
summary: The website is built from Markdown in Git with a static site generator, no CMS.
---
# Choose a CMS

No CMS: the pages are Markdown in Git, built by a static site generator on every push.

## Why

- Everyone already writes Markdown in this repository.
- No server to run or to patch.

## Considered

- A hosted CMS at 300 € a month: more than we need for twelve pages.
`;

/** The history of `projects`, oldest first. */
export const projectsCommits: DemoCommit[] = [
  {
    author: maya,
    date: '2026-01-15T09:12:00+01:00',
    message: 'Set up the projects repository\n\nFolders active/ and archive/, the decision type and the create_decision tool.',
    files: {
      'README.md': rootReadme,
      '.vault/settings.jsonc': projectsSettings,
      '.vault/instructions.md': 'Every decision names who made it and when.\n',
      '.vault/types/decision.md': decisionType,
      '.vault/tools/create_decision.md': createDecisionTool,
      'archive/README.md': archiveReadme,
      'archive/2025-pilot/README.md': pilotReadme,
      'archive/2025-pilot/retrospective.md': pilotRetrospective,
    },
  },
  {
    author: maya,
    date: '2026-02-02T14:30:00+01:00',
    message: 'Start the launch project with a first plan',
    files: { 'active/launch/README.md': launchReadme, 'active/launch/plan.md': launchPlanV1 },
  },
  {
    author: tom,
    date: '2026-02-09T16:05:00+01:00',
    message: 'Notes of the launch kickoff',
    files: { 'active/launch/meetings/2026-02-09 kickoff.md': kickoff },
  },
  {
    author: jonas,
    date: '2026-02-10T11:40:00+01:00',
    message: 'Record the launch date decision\n\nMaya decided on 2026-04-21 after the kickoff.',
    files: { 'active/launch/decisions/README.md': decisionsReadme, 'active/launch/decisions/pick-a-date.md': pickADate },
  },
  {
    author: priya,
    date: '2026-02-23T17:20:00+01:00',
    message: 'Pricing review: trial price decided, 36 stores signed',
    files: {
      'active/launch/meetings/2026-02-23 pricing review.md': pricingReview,
      'active/launch/decisions/pricing-model.md': pricingModel,
      'active/launch/budget.md': launchBudget,
      'active/launch/plan.md': launchPlanV2,
    },
  },
  {
    author: jonas,
    date: '2026-03-04T10:15:00+01:00',
    message: 'Start the website relaunch project',
    files: {
      'active/website-relaunch/README.md': relaunchReadme,
      'active/website-relaunch/plan.md': relaunchPlan,
      'active/website-relaunch/decisions/choose-a-cms.md': chooseACms,
      'scripts/export-decisions.sh': exportScript,
    },
  },
  {
    author: maya,
    date: '2026-03-09T09:45:00+01:00',
    message: 'Launch markets decided; open questions and an overview table',
    files: {
      'active/launch/decisions/launch-markets.md': launchMarkets,
      'active/launch/decisions/open-questions.md': openQuestions,
      'active/launch/Overview.base': overviewBase,
    },
  },
  {
    author: maya,
    date: '2026-03-10T08:30:00+01:00',
    message:
      'Offer a decision brief prompt and the launch plan as resources\n\nAssistants list them as MCP prompts and resources; only readers of projects see them.',
    files: {
      '.vault/settings.jsonc': projectsSettingsWithPrompts,
      '.vault/prompts/decision-brief.md': decisionBriefPrompt,
    },
  },
  {
    author: maya,
    date: '2026-03-11T08:30:00+01:00',
    message: 'Proposals and the launch log, with their tools\n\nThe proposal type, advance_proposal (transition) and log_launch (append), both guarded.',
    files: {
      '.vault/types/proposal.md': proposalType,
      '.vault/tools/advance_proposal.md': advanceProposalTool,
      '.vault/tools/log_launch.md': logLaunchTool,
      'active/launch/log.md': launchLog,
      'active/launch/proposals/loyalty-card.md': loyaltyCard,
    },
  },
  careToolsCommit,
];
