import type {
  CreateEnvironmentVariable,
  EnvironmentVariable,
  EnvironmentVariableKind,
  EnvironmentVariableMember,
  EnvironmentVariableType,
  ModifyEnvironmentVariable,
} from '../../../api/types.js';
import { IDENTIFIER, IDENTIFIER_HINT } from '../variable-labels.js';

export interface MemberRow {
  /** Stable React key: rows can be renamed, added and removed. */
  key: number;
  name: string;
  type: EnvironmentVariableType;
}

/** The create/edit form as typed. */
export interface VariableDraft {
  name: string;
  description: string;
  kind: EnvironmentVariableKind;
  /** For a single value. */
  type: EnvironmentVariableType;
  members: MemberRow[];
}

export interface VariableDraftProblems {
  name?: string;
  members?: string;
  /** Row key → problem of that member's name. */
  memberNames: Record<number, string>;
}

let nextRowKey = 1;
export function newMemberRow(name = '', type: EnvironmentVariableType = 'string'): MemberRow {
  return { key: nextRowKey++, name, type };
}

export function emptyDraft(): VariableDraft {
  return { name: '', description: '', kind: 'group', type: 'string', members: [newMemberRow()] };
}

export function draftOf(variable: EnvironmentVariable): VariableDraft {
  return {
    name: variable.name,
    description: variable.description ?? '',
    kind: variable.kind,
    type: variable.type ?? 'string',
    members: (variable.members ?? []).map((member) => newMemberRow(member.name, member.type)),
  };
}

function checkIdentifier(name: string, what: string): string | undefined {
  if (!name) return `Enter ${what}.`;
  if (!IDENTIFIER.test(name)) return IDENTIFIER_HINT;
  if (name.length > 100) return 'Use at most 100 characters.';
  return undefined;
}

export function problemsOf(draft: VariableDraft): VariableDraftProblems {
  const problems: VariableDraftProblems = { memberNames: {} };
  const name = checkIdentifier(draft.name.trim(), 'a name');
  if (name) problems.name = name;
  if (draft.kind === 'group') {
    if (draft.members.length === 0) problems.members = 'A group needs at least one member.';
    const seen = new Set<string>();
    for (const row of draft.members) {
      const rowName = row.name.trim();
      const problem = checkIdentifier(rowName, 'a member name');
      if (problem) problems.memberNames[row.key] = problem;
      else if (seen.has(rowName.toLowerCase())) problems.memberNames[row.key] = 'This name is used twice.';
      seen.add(rowName.toLowerCase());
    }
  }
  return problems;
}

export function hasProblems(problems: VariableDraftProblems): boolean {
  return (
    problems.name !== undefined ||
    problems.members !== undefined ||
    Object.keys(problems.memberNames).length > 0
  );
}

function membersOf(draft: VariableDraft): EnvironmentVariableMember[] {
  return draft.members.map((row) => ({ name: row.name.trim(), type: row.type }));
}

export function toCreateRequest(draft: VariableDraft): CreateEnvironmentVariable {
  const description = draft.description.trim();
  const common = { name: draft.name.trim(), ...(description ? { description } : {}) };
  return draft.kind === 'group'
    ? { kind: 'group', ...common, members: membersOf(draft) }
    : { kind: 'value', ...common, type: draft.type };
}

/** Only what changed, so a rename alone is not refused for an unrelated member change. */
export function toModifyRequest(
  variable: EnvironmentVariable,
  draft: VariableDraft,
): ModifyEnvironmentVariable {
  const request: ModifyEnvironmentVariable = {};
  const name = draft.name.trim();
  if (name !== variable.name) request.name = name;
  const description = draft.description.trim();
  if (description !== (variable.description ?? '')) request.description = description || null;
  if (variable.kind === 'value' && draft.type !== (variable.type ?? 'string')) request.type = draft.type;
  if (variable.kind === 'group') {
    const members = membersOf(draft);
    if (JSON.stringify(members) !== JSON.stringify(variable.members ?? [])) request.members = members;
  }
  return request;
}

/** Members that the edit drops: their values go in every environment. */
export function droppedMembers(variable: EnvironmentVariable, draft: VariableDraft): string[] {
  const kept = new Set(draft.members.map((row) => row.name.trim()));
  return (variable.members ?? []).map((member) => member.name).filter((name) => !kept.has(name));
}
