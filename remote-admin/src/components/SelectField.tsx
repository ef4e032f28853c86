import { Select } from '@portal/shared';
import { FieldLabel } from './Page';

export interface SelectOption<V extends string | number> {
  value: V;
  label: string;
}

/** A labelled select of the admin panel: the choice is handed back as the option's value, typed. */
export function SelectField<V extends string | number>({
  id,
  label,
  value,
  options,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  value: V;
  options: readonly SelectOption<V>[];
  disabled?: boolean;
  onChange(value: V): void;
}) {
  return (
    <FieldLabel htmlFor={id}>
      {label}
      <Select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => {
          const chosen = options.find((option) => String(option.value) === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </FieldLabel>
  );
}
