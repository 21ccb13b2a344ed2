import { SvgIcon, type SvgIconProps } from '@mui/material';

// Material Design glyphs (Apache 2.0), inlined so the product does not ship the whole icon package.
export function glyph(path: string, name: string) {
  function Icon(props: SvgIconProps) {
    return (
      <SvgIcon {...props} viewBox="0 0 24 24">
        <path d={path} />
      </SvgIcon>
    );
  }
  Icon.displayName = name;
  return Icon;
}

export const DownloadIcon = glyph('M5 20h14v-2H5v2zM19 9h-4V3H9v6H5l7 7 7-7z', 'DownloadIcon');
export const OpenInNewIcon = glyph(
  'M19 19H5V5h7V3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14c1.1 0 2-.9 2-2v-7h-2v7zM14 3v2h3.59l-9.83 9.83 1.41 1.41L19 6.41V10h2V3h-7z',
  'OpenInNewIcon',
);
export const MenuIcon = glyph('M3 18h18v-2H3v2zm0-5h18v-2H3v2zm0-7v2h18V6H3z', 'MenuIcon');
export const CloseIcon = glyph(
  'M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z',
  'CloseIcon',
);
export const VisibilityIcon = glyph(
  'M12 4.5C7 4.5 2.73 7.61 1 12c1.73 4.39 6 7.5 11 7.5s9.27-3.11 11-7.5c-1.73-4.39-6-7.5-11-7.5M12 17c-2.76 0-5-2.24-5-5s2.24-5 5-5 5 2.24 5 5-2.24 5-5 5m0-8c-1.66 0-3 1.34-3 3s1.34 3 3 3 3-1.34 3-3-1.34-3-3-3',
  'VisibilityIcon',
);
export const VisibilityOffIcon = glyph(
  'M12 7c2.76 0 5 2.24 5 5 0 .65-.13 1.26-.36 1.83l2.92 2.92c1.51-1.26 2.7-2.89 3.43-4.75-1.73-4.39-6-7.5-11-7.5-1.4 0-2.74.25-3.98.7l2.16 2.16C10.74 7.13 11.35 7 12 7M2 4.27l2.28 2.28.46.46C3.08 8.3 1.78 10.02 1 12c1.73 4.39 6 7.5 11 7.5 1.55 0 3.03-.3 4.38-.84l.42.42L19.73 22 21 20.73 3.27 3zM7.53 9.8l1.55 1.55c-.05.21-.08.43-.08.65 0 1.66 1.34 3 3 3 .22 0 .44-.03.65-.08l1.55 1.55c-.67.33-1.41.53-2.2.53-2.76 0-5-2.24-5-5 0-.79.2-1.53.53-2.2m4.31-.78 3.15 3.15.02-.16c0-1.66-1.34-3-3-3z',
  'VisibilityOffIcon',
);
/** The Sage logo mark. */
export const SageMarkIcon = glyph(
  'M12 2C7 6 5 10 5 14a7 7 0 0 0 14 0c0-4-2-8-7-12zm1 17.9V15l3-3-1.4-1.4-1.6 1.6V9h-2v5.2l-1.6-1.6L8 14l3 3v2.9A5 5 0 0 1 7 14c0-2.9 1.6-6 5-9.4 3.4 3.4 5 6.5 5 9.4a5 5 0 0 1-4 4.9z',
  'SageMarkIcon',
);
