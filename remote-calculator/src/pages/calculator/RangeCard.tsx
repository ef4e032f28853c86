import { useId } from 'react';
import styled from 'styled-components';
import { Card, Input, theme } from '@portal/shared';
import type { Bound, RangeView } from './useCalculator';

const Title = styled.h2`
  margin: 0 0 16px;
  font-size: 1.25rem;
  line-height: 1.3;
`;

const Fields = styled.div`
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 16px;
`;

const Field = styled.div<{ $wide?: boolean }>`
  display: flex;
  flex-direction: column;
  gap: 6px;
  grid-column: ${(p) => (p.$wide ? '1 / -1' : 'auto')};
  min-width: 0;
`;

const Label = styled.label`
  font-weight: 600;
`;

const InputRow = styled.div`
  display: flex;
`;

// The unit sits against the input, so the input's own right corners are squared off.
const NumberInput = styled(Input)`
  border-top-right-radius: 0;
  border-bottom-right-radius: 0;
`;

const Unit = styled.span`
  display: flex;
  align-items: center;
  justify-content: center;
  min-width: 3rem;
  padding: 0 8px;
  border: 1px solid ${theme.color.border};
  border-left: 0;
  border-radius: 0 ${theme.radius} ${theme.radius} 0;
  background: ${theme.color.background};
  color: ${theme.color.muted};
  font-size: 0.875rem;
  font-weight: 600;
  white-space: nowrap;
`;

function DecimalField({
  label,
  unit,
  value,
  invalid,
  wide,
  onChange,
}: {
  label: string;
  unit: string;
  value: string;
  invalid: boolean;
  wide?: boolean;
  onChange: (text: string) => void;
}) {
  const id = useId();
  return (
    <Field $wide={wide}>
      <Label htmlFor={id}>{label}</Label>
      <InputRow>
        {/* Text rather than number: a number input rejects a comma as the decimal separator. */}
        <NumberInput
          id={id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          $invalid={invalid}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-unit`}
          onChange={(event) => onChange(event.target.value)}
        />
        <Unit id={`${id}-unit`}>{unit}</Unit>
      </InputRow>
    </Field>
  );
}

/** The range's minimum or maximum, in the unit of its type. */
function BoundField({
  label,
  bound,
  range,
  onChange,
}: {
  label: string;
  bound: Bound;
  range: RangeView;
  onChange: (bound: Bound, text: string) => void;
}) {
  return (
    <DecimalField
      label={label}
      unit={range.type.unit}
      value={range[bound]}
      invalid={range.invalid[bound]}
      onChange={(text) => onChange(bound, text)}
    />
  );
}

/** One side of the calculator: its range type, bounds and value, named by its title so it can be found as a region. */
export function RangeCard({
  title,
  typeLabel,
  range,
  onSelectType,
  onBoundChange,
  onValueChange,
}: {
  title: string;
  typeLabel: string;
  range: RangeView;
  onSelectType: (typeId: string) => void;
  onBoundChange: (bound: Bound, text: string) => void;
  onValueChange: (text: string) => void;
}) {
  const titleId = useId();
  const selectId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <Title id={titleId}>{title}</Title>
      <Fields>
        <Field $wide>
          <Label htmlFor={selectId}>{typeLabel}</Label>
          <Input as="select" id={selectId} value={range.type.id} onChange={(event) => onSelectType(event.target.value)}>
            {range.types.map((type) => (
              <option key={type.id} value={type.id}>
                {type.label}
              </option>
            ))}
          </Input>
        </Field>
        <BoundField label="Mínimo" bound="min" range={range} onChange={onBoundChange} />
        <BoundField label="Máximo" bound="max" range={range} onChange={onBoundChange} />
        <DecimalField
          label="Valor"
          unit={range.type.unit}
          value={range.value}
          invalid={range.invalid.value}
          wide
          onChange={onValueChange}
        />
      </Fields>
    </Card>
  );
}
