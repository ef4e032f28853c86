/** The one styled-components theme of the portal. */
export const theme = {
  color: {
    primary: '#1d4ed8',
    primaryHover: '#1e40af',
    primaryText: '#ffffff',
    text: '#0f172a',
    muted: '#475569',
    border: '#cbd5e1',
    surface: '#ffffff',
    background: '#f1f5f9',
    danger: '#b91c1c',
    dangerBg: '#fef2f2',
    success: '#15803d',
    successBg: '#f0fdf4',
    info: '#1e40af',
    infoBg: '#eff6ff',
    disabled: '#94a3b8',
  },
  radius: '10px',
  shadow: '0 1px 3px rgba(15, 23, 42, 0.12), 0 4px 12px rgba(15, 23, 42, 0.06)',
  font: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  breakpoint: { mobile: '640px' },
} as const;

export type PortalTheme = typeof theme;
