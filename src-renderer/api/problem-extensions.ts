import type { ErrorCode } from '../../src-server/core/contracts/error-codes.js';

/**
 * Readable lines for the extension members of a problem answer that tell the user more than its detail does.
 * Which members are read depends on the problem's code. Ids, revisions and the overlapping API of a 409 are left
 * out: the detail already names what they identify.
 */

export type ProblemExtensions = Readonly<Record<string, unknown>>;

type Member = Readonly<Record<string, unknown>>;

function membersOf(value: unknown): Member[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is Member => typeof item === 'object' && item !== null);
}

function textOf(member: Member, key: string): string | undefined {
  const value = member[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `Missing values in environment 'Production': #env.a, #env.b.c`, one line per environment. */
function missingValueLines(missingValues: unknown): string[] {
  const referencesByEnvironment = new Map<string, Set<string>>();
  for (const missing of membersOf(missingValues)) {
    const reference = textOf(missing, 'reference');
    const environment = textOf(missing, 'environmentName') ?? textOf(missing, 'environmentId');
    if (!reference || !environment) continue;
    const references = referencesByEnvironment.get(environment) ?? new Set<string>();
    referencesByEnvironment.set(environment, references.add(reference));
  }
  return [...referencesByEnvironment].map(([environment, references]) => {
    const label = references.size === 1 ? 'Missing value' : 'Missing values';
    return `${label} in environment '${environment}': ${[...references].join(', ')}`;
  });
}

/** What blocks a change, by the member that lists it and the name each item is known by. */
interface NameList {
  key: string;
  nameKey: string;
  label: string;
}

const IN_USE_LISTS: readonly NameList[] = [
  { key: 'apis', nameKey: 'name', label: 'APIs' },
  { key: 'policies', nameKey: 'name', label: 'Policies' },
  { key: 'apiKeys', nameKey: 'name', label: 'API keys' },
  { key: 'agentGroups', nameKey: 'name', label: 'Agent groups' },
  { key: 'passthroughs', nameKey: 'apiName', label: 'Passthroughs of the APIs' },
];
const LEGACY_LIST: NameList = { key: 'legacyAgentGroups', nameKey: 'name', label: 'Legacy agent groups' };

/**
 * The full list when the detail names only some of it: the server lists the first few names, quoted, and
 * counts the rest ("… and 3 more").
 */
function nameListLines(extensions: ProblemExtensions, list: NameList, detail: string): string[] {
  const names = membersOf(extensions[list.key]).flatMap((member) => textOf(member, list.nameKey) ?? []);
  const allNamed = names.every((name) => detail.includes(`'${name}'`));
  return allNamed ? [] : [`${list.label}: ${names.join(', ')}`];
}

function targetUrlLines(extensions: ProblemExtensions): string[] {
  const targetUrl = extensions.targetUrl;
  return typeof targetUrl === 'string' && targetUrl !== '' ? [`Target URL: ${targetUrl}`] : [];
}

type LineReader = (extensions: ProblemExtensions, detail: string) => string[];

const missingValues: LineReader = (extensions) => missingValueLines(extensions.missingValues);

/** The members each code brings that are worth a line. */
const LINES_BY_CODE: Partial<Record<ErrorCode, readonly LineReader[]>> = {
  GH_ERR_MISSING_VARIABLE_VALUES: [missingValues],
  GH_ERR_IN_USE: [
    missingValues,
    ...IN_USE_LISTS.map(
      (list): LineReader =>
        (extensions, detail) =>
          nameListLines(extensions, list, detail),
    ),
  ],
  GH_ERR_LEGACY_AGENT_GROUP: [(extensions, detail) => nameListLines(extensions, LEGACY_LIST, detail)],
  GH_ERR_TRY_IT_TIMEOUT: [targetUrlLines],
};

export function extensionMessages(
  code: string | undefined,
  extensions: ProblemExtensions,
  detail = '',
): string[] {
  const readers = code === undefined ? undefined : LINES_BY_CODE[code as ErrorCode];
  return (readers ?? []).flatMap((read) => read(extensions, detail));
}
