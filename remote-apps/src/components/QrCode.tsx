import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { theme } from '@portal/shared';

const Frame = styled.div<{ $size: number }>`
  width: ${(p) => p.$size}px;
  height: ${(p) => p.$size}px;
  display: grid;
  place-items: center;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  background: #ffffff;
  img { width: 100%; height: 100%; }
  p { margin: 8px; font-size: 0.8125rem; color: ${theme.color.muted}; text-align: center; }
`;

/**
 * `value` as a QR code: an SVG drawn by the `qrcode` package (the one the API draws the authenticator's code with),
 * shown as an image with `label` as its text. The package is fetched when the first code is drawn, so the apps
 * page's first JavaScript does not carry it (docs/decisions/0051-where-to-get-a-mobile-app.md); if it cannot be
 * fetched the box says so and the links beside it still work.
 */
export function QrCode({ value, label, size = 160 }: { value: string; label: string; size?: number }) {
  const [image, setImage] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setImage(null);
    setFailed(false);
    import(/* webpackChunkName: "qrcode" */ 'qrcode')
      .then((qrcode) => qrcode.toString(value, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then(
        (svg) => current && setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
        () => current && setFailed(true),
      );
    return () => {
      current = false;
    };
  }, [value]);

  return (
    <Frame $size={size}>
      {image && <img src={image} alt={label} width={size} height={size} />}
      {failed && <p>No se pudo dibujar el código QR: usa el enlace.</p>}
    </Frame>
  );
}
