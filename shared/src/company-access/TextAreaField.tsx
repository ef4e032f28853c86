import { useId } from 'react';
import styled from 'styled-components';
import { Input } from '../ui/TextField';
import { theme } from '../ui/theme';

const FieldLabel = styled.label`
  display: flex;
  flex-direction: column;
  gap: 6px;
  font-weight: 600;
`;

const Area = styled(Input)`
  min-height: 88px;
  padding: 10px 12px;
  resize: vertical;
`;

const Hint = styled.p`
  margin: 6px 0 0;
  color: ${theme.color.muted};
  font-size: 0.875rem;
`;

/** A labelled multi-line field (a list typed one item a line), across its form's grid. */
export function TextAreaField({
  label,
  hint,
  value,
  onChange,
  disabled,
  rows = 3,
}: {
  label: string;
  hint?: string;
  value: string;
  onChange(value: string): void;
  disabled?: boolean;
  rows?: number;
}) {
  const id = useId();
  return (
    <div className="wide">
      <FieldLabel htmlFor={id}>
        {label}
        <Area
          as="textarea"
          id={id}
          rows={rows}
          value={value}
          spellCheck={false}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(event) => onChange(event.target.value)}
          disabled={disabled}
        />
      </FieldLabel>
      {hint && <Hint id={`${id}-hint`}>{hint}</Hint>}
    </div>
  );
}
