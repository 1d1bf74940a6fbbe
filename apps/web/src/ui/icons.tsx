import type { ReactNode } from 'react';

interface IconProps {
  readonly size?: number;
}

/** Outline icons drawn inline: a handful does not justify an icon package in the bundle. */
export function OutlineIcon({ size = 24, fill = 'none', children }: IconProps & { readonly fill?: string; readonly children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={fill}
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const ClockIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 3" />
  </OutlineIcon>
);

export const LockIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <circle cx="12" cy="16" r="1" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </OutlineIcon>
);

export const CalendarOffIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <rect x="4" y="5" width="16" height="16" rx="2" />
    <path d="M16 3v4M8 3v4M4 11h16M10 14l4 4M14 14l-4 4" />
  </OutlineIcon>
);

export const AlertTriangleIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M12 9v4M12 16h.01" />
    <path d="M10.36 3.59 2.26 17.13a1.91 1.91 0 0 0 1.63 2.87h16.22a1.91 1.91 0 0 0 1.63-2.87L13.64 3.59a1.91 1.91 0 0 0-3.28 0z" />
  </OutlineIcon>
);

export const BanIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M5.7 5.7l12.6 12.6" />
  </OutlineIcon>
);

export const CompassIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="m8 16 2-6 6-2-2 6z" />
  </OutlineIcon>
);

export const GlobeIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M3.6 9h16.8M3.6 15h16.8M11.5 3a17 17 0 0 0 0 18M12.5 3a17 17 0 0 1 0 18" />
  </OutlineIcon>
);

export const PackageIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M12 3 20 7.5v9L12 21l-8-4.5v-9z" />
    <path d="M12 12l8-4.5M12 12v9M12 12 4 7.5" />
  </OutlineIcon>
);

export const RouteIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="6" cy="19" r="2" />
    <circle cx="18" cy="5" r="2" />
    <path d="M12 19h4.5a3.5 3.5 0 0 0 0-7h-8a3.5 3.5 0 0 1 0-7H12" />
  </OutlineIcon>
);

export const UsersIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="9" cy="7" r="4" />
    <path d="M3 21v-2a4 4 0 0 1 4-4h4a4 4 0 0 1 4 4v2M16 3.13a4 4 0 0 1 0 7.75M21 21v-2a4 4 0 0 0-3-3.85" />
  </OutlineIcon>
);

/** The Pakt mark, the same drawing as public/favicon.svg. */
export const PaktMark = ({ size = 28 }: IconProps) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
    <rect width="32" height="32" rx="7" fill="var(--mantine-primary-color-filled)" />
    <path
      d="M9 23V9h7.5a4.5 4.5 0 0 1 0 9H12"
      fill="none"
      stroke="#fff"
      strokeWidth="3"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
    <path d="M18 23.5c1.6-1.4 3.2-1.4 4.8 0" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
  </svg>
);

export const CheckIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M5 12l5 5L20 7" />
  </OutlineIcon>
);

export const CircleIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="12" cy="12" r="8" />
  </OutlineIcon>
);

export const UserIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21v-1a6 6 0 0 1 6-6h4a6 6 0 0 1 6 6v1" />
  </OutlineIcon>
);

export const HelpIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01" />
  </OutlineIcon>
);

export const LogoutIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M14 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2v-2" />
    <path d="M10 12h10M17 9l3 3-3 3" />
  </OutlineIcon>
);

export const BuildingIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M4 21h16M6 21V5a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v16" />
    <path d="M10 8h1M13 8h1M10 12h1M13 12h1M10 16h4v5h-4z" />
  </OutlineIcon>
);

export const CopyIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <rect x="8" y="8" width="12" height="12" rx="2" />
    <path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2" />
  </OutlineIcon>
);

export const ShieldIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z" />
    <path d="M9 12l2 2 4-4" />
  </OutlineIcon>
);

export const KeyIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="8" cy="15" r="4" />
    <path d="M11 12l9-9M17 6l3 3M14 9l2 2" />
  </OutlineIcon>
);

export const MailIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="m3 7 9 6 9-6" />
  </OutlineIcon>
);

export const MegaphoneIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M3 10v4a1 1 0 0 0 1 1h3l6 4V5L7 9H4a1 1 0 0 0-1 1z" />
    <path d="M17 9a4 4 0 0 1 0 6" />
    <path d="M8 15l1 4h2l-.5-3" />
  </OutlineIcon>
);

export const MenuIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </OutlineIcon>
);

export const PlusIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M12 5v14M5 12h14" />
  </OutlineIcon>
);

export const ArrowUpIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M12 19V5M6 11l6-6 6 6" />
  </OutlineIcon>
);

export const ArrowDownIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M12 5v14M6 13l6 6 6-6" />
  </OutlineIcon>
);

export const TrashIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
  </OutlineIcon>
);

export const PencilIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M4 20h4L18.5 9.5a2.83 2.83 0 0 0-4-4L4 16v4zM13.5 6.5l4 4" />
  </OutlineIcon>
);

export const XIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M6 6l12 12M18 6 6 18" />
  </OutlineIcon>
);

export const TagIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M3 12V4a1 1 0 0 1 1-1h8l9 9-9 9z" />
    <circle cx="7.5" cy="7.5" r="1.5" />
  </OutlineIcon>
);

/** A clipboard with lines: the administration audit log. */
export const ClipboardListIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M9 5H7a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-2" />
    <rect x="9" y="3" width="6" height="4" rx="1.5" />
    <path d="M9 12h.01M12 12h3M9 16h.01M12 16h3" />
  </OutlineIcon>
);

export const DotsIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="5" cy="12" r="1" />
    <circle cx="12" cy="12" r="1" />
    <circle cx="19" cy="12" r="1" />
  </OutlineIcon>
);

export const DownloadIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
  </OutlineIcon>
);

export const UploadIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M12 16V5M7 10l5-5 5 5M5 20h14" />
  </OutlineIcon>
);

export const UserPlusIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="9" cy="8" r="4" />
    <path d="M3 21v-1a6 6 0 0 1 12 0v1M19 8v6M16 11h6" />
  </OutlineIcon>
);

/** Two arrows chasing each other: synchronising (user sync-up). */
export const RefreshIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <path d="M20 11a8 8 0 0 0-14.9-4M4 4v4h4M4 13a8 8 0 0 0 14.9 4M20 20v-4h-4" />
  </OutlineIcon>
);

/** A crosshair: "where I am now" (the signer's current location). */
export const CrosshairIcon = (props: IconProps) => (
  <OutlineIcon {...props}>
    <circle cx="12" cy="12" r="7" />
    <circle cx="12" cy="12" r="2.5" />
    <path d="M12 2v3M12 19v3M2 12h3M19 12h3" />
  </OutlineIcon>
);
