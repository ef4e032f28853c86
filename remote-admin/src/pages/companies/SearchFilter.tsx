import { type FormEvent, type ReactNode, useState } from 'react';
import styled from 'styled-components';
import { Button, Input } from '@portal/shared';
import { FieldLabel } from '../../components/Page';
import { TEXT_COMPANY } from './texts';

const Form = styled.form`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 12px;
  margin-bottom: 16px;
  & > label.text { flex: 1 1 260px; min-width: 0; }
  & > label > input { width: 100%; box-sizing: border-box; }
`;

/**
 * A list's search form (role search): a labelled text field, any other fields, and 'Buscar', which gives the text
 * typed, trimmed, to `onSearch`. `before` stands ahead of the text field, `after` between it and 'Buscar'.
 */
export function SearchFilter({
  id,
  label,
  placeholder,
  type,
  onSearch,
  before,
  after,
}: {
  id: string;
  label: string;
  placeholder: string;
  type?: 'search';
  onSearch(text: string): void;
  before?: ReactNode;
  after?: ReactNode;
}) {
  const [typed, setTyped] = useState('');
  const search = (event: FormEvent) => {
    event.preventDefault();
    onSearch(typed.trim());
  };
  return (
    <Form onSubmit={search} role="search">
      {before}
      <FieldLabel htmlFor={id} className="text">
        {label}
        <Input
          id={id}
          type={type}
          value={typed}
          placeholder={placeholder}
          onChange={(event) => setTyped(event.target.value)}
        />
      </FieldLabel>
      {after}
      <Button type="submit" $variant="secondary">
        {TEXT_COMPANY.search}
      </Button>
    </Form>
  );
}
