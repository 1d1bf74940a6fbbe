import type { ReactNode } from 'react';
import { OutlineIcon } from '../../ui/icons';

interface IconProps {
  readonly size?: number;
}

/** The inbox's icons, a size smaller than the app's by default (same outline drawing as ui/icons.tsx). */
function Outline({ size = 20, ...rest }: IconProps & { readonly fill?: string; readonly children: ReactNode }) {
  return <OutlineIcon size={size} {...rest} />;
}

const STAR = 'M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z';

export const StarIcon = ({ size, filled = false }: IconProps & { readonly filled?: boolean }) => (
  <Outline size={size} fill={filled ? 'currentColor' : 'none'}>
    <path d={STAR} />
  </Outline>
);

export const SearchIcon = (props: IconProps) => (
  <Outline {...props}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="M20 20l-4.2-4.2" />
  </Outline>
);

export const InboxIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M4 13h4l1.5 3h5L16 13h4" />
    <path d="M4 13l2.5-7h11L20 13v6H4z" />
  </Outline>
);

export const ClockAlertIcon = (props: IconProps) => (
  <Outline {...props}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </Outline>
);

export const SendIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M21 3L10 14" />
    <path d="M21 3l-7 18-4-7-7-4z" />
  </Outline>
);

export const CheckCircleIcon = (props: IconProps) => (
  <Outline {...props}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M8.5 12.5l2.5 2.5 4.5-5" />
  </Outline>
);

export const SortIcon = ({ size = 14, direction }: IconProps & { readonly direction: 'asc' | 'desc' | null }) => (
  <Outline size={size}>
    {direction !== 'desc' && <path d="M8 10l4-4 4 4" opacity={direction === null ? 0.45 : 1} />}
    {direction !== 'asc' && <path d="M8 14l4 4 4-4" opacity={direction === null ? 0.45 : 1} />}
  </Outline>
);
