import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { EntryDraft } from '../draft/editor-draft.js';
import { sectionProblems, type ProblemSources, type SectionNumber } from '../draft/field-problems.js';
import type { ReferenceItem } from '../references/reference-catalog.js';
import { TemplateField } from '../references/TemplateField.js';

const SECTIONS: { number: SectionNumber; hint: string; placeholder: string }[] = [
  {
    number: 1,
    hint: 'Server name or base URL of the target system (required).',
    placeholder: 'https://backend.example.com or {{#env.backend.url}}',
  },
  { number: 2, hint: 'Base path or directory under that server.', placeholder: 'api/v2' },
  { number: 3, hint: 'Operation-specific path.', placeholder: '{{#api.OperationPath}}' },
  {
    number: 4,
    hint: 'Query parameters (optional), without the leading ?.',
    placeholder: '{{#api.QueryParameters}}',
  },
];

export interface TargetSectionsProps {
  target: EntryDraft['target'];
  onChange: (target: EntryDraft['target']) => void;
  references: readonly ReferenceItem[];
  sources: ProblemSources;
  readOnly: boolean;
}

/** The four sections of the target URL: joined with `/`, section 4 after `?`. */
export function TargetSections({ target, onChange, references, sources, readOnly }: TargetSectionsProps) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="h3" sx={{ mb: 0.5 }}>
        Target URL
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        Plain text, <code>{'{{ }}'}</code> expressions and references: type <code>{'{{#'}</code>,{' '}
        <code>#env.</code> or <code>#api.</code> for the list (Ctrl+Space opens it anywhere).
      </Typography>
      <Box sx={{ display: 'grid', gap: 2 }}>
        {SECTIONS.map(({ number, hint, placeholder }) => {
          const field = `section${number}` as const;
          return (
            <TemplateField
              key={number}
              label={`Target URL section ${number}`}
              value={target[field]}
              onChange={(value) => onChange({ ...target, [field]: value })}
              references={references}
              problems={sectionProblems(number, sources)}
              helperText={hint}
              placeholder={placeholder}
              required={number === 1}
              place={field}
              readOnly={readOnly}
            />
          );
        })}
      </Box>
    </Box>
  );
}
