import styled from 'styled-components';

/**
 * Text for screen readers only (the usual clip pattern): it completes an element's accessible name after its visible
 * text, so that the name still starts with what is on screen (WCAG 2.5.3, axe's label-content-name-mismatch).
 */
export const VisuallyHidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
`;
