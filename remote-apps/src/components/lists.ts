import styled, { css } from 'styled-components';

/** A list without bullets or indent, its items side by side and wrapping (badges, pills). */
export const WrapList = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

/**
 * A grid of tiles (or cards) at least `minWidth` wide, `gap` apart: `auto-fill` keeps empty columns on a wide screen,
 * `auto-fit` lets a few tiles stretch over the whole row. On a list, no bullets or indent.
 */
export const tileGrid = (minWidth: string, fit: 'auto-fill' | 'auto-fit' = 'auto-fill', gap = '12px') => css`
  display: grid;
  grid-template-columns: repeat(${fit}, minmax(${minWidth}, 1fr));
  gap: ${gap};
  margin: 0;
  padding: 0;
  list-style: none;
`;
