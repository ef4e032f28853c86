import type { ComponentType } from 'react';
import type { FieldLabels } from '../api/client';
import type { CompanyProviderInput } from '../types/entities';

/** The fields of a body that are the protocol's own: the domains and the password are the form's. */
export type ProtocolBody = CompanyProviderInput extends infer Input
  ? Input extends CompanyProviderInput
    ? Omit<Input, 'dominios' | 'permitirContrasena'>
    : never
  : never;

/** What a protocol part's fields are given: its values as typed, the saved connection of its protocol, and the wait. */
export interface ProtocolFieldsProps<V, C> {
  values: V;
  onChange(values: V): void;
  current: C | null;
  busy: boolean;
}

/**
 * One protocol's part of the company sign-in form (SsoConnectionForm.tsx): its values as first shown, its fields, its own
 * refusal and body fields, and the labels of its API field names. Everything else (domains, password, the refusal and
 * 'Guardar') the form has once for both protocols.
 */
export interface ProtocolPart<V, C> {
  labels: FieldLabels;
  initial(current: C | null): V;
  body(values: V, current: C | null): { problem: string | null; fields: ProtocolBody };
  Fields: ComponentType<ProtocolFieldsProps<V, C>>;
}
