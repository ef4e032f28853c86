/**
 * The promo banner's image (spec §2: 'a promo banner image opening an external campaign page'): a plant with its
 * tank, pipes and a trend, drawn as SVG and handed to an <img> as a data: address, so nothing is downloaded and the
 * page's Content Security Policy (`img-src data:`) serves it from every origin the remote is loaded from.
 */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 132">
<circle cx="196" cy="30" r="20" fill="#fde68a" opacity="0.85"/>
<rect x="22" y="58" width="54" height="62" rx="8" fill="#ffffff" opacity="0.9"/>
<rect x="30" y="70" width="38" height="10" rx="3" fill="#1d4ed8" opacity="0.55"/>
<rect x="30" y="86" width="26" height="8" rx="3" fill="#0f766e" opacity="0.6"/>
<path d="M76 96h30v-30h34" fill="none" stroke="#99f6e4" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>
<rect x="140" y="46" width="44" height="74" rx="22" fill="#5eead4" opacity="0.9"/>
<rect x="150" y="70" width="24" height="36" rx="6" fill="#0f766e" opacity="0.5"/>
<polyline points="96,40 116,26 134,32 156,12" fill="none" stroke="#ffffff" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>
<rect x="10" y="120" width="220" height="6" rx="3" fill="#ffffff" opacity="0.35"/>
</svg>`;

export const CAMPAIGN_ART = `data:image/svg+xml,${encodeURIComponent(SVG)}`;
