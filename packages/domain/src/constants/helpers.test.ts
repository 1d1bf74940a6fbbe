import { describe, it, expect } from 'vitest';
import * as constants from './index';
import { NOTIFICATION_TARGET_BY_TYPE, NOTIFICATION_TYPES } from './notifications';
import { OdpCode, odpCodeMeaning } from './odp-codes';
import { AUTO_REGISTRATION_ROLES, Role, VIEW_ENFORCEMENT_ROLES } from './roles';
import { SIGNING_POLICIES, isDigitalSigningPolicy, supportsMultipleSignatureTags } from './signing-policies';
import { STAMP_PAPER_STATUS_OPTIONS, SignerStatus, UserStatus } from './statuses';
import { POLICY_TAG_SETS, SIGN_TAG_IDS, TAG_TYPES, TagType, tagOverlapTolerance } from './tags';
import { uisSessionLength } from './time';
import { ANNOUNCEMENT_TIMER_MAX_MS, ZOOM_DEFAULTS, ZoomLevel, bytesToMegabytes, clampTimerDelay, createZoomSchema } from './ui';

describe('enum schemas', () => {
  it('keep exact spelling and casing', () => {
    expect(SignerStatus.safeParse('DelegatePending').success).toBe(true);
    expect(SignerStatus.safeParse('delegatepending').success).toBe(false);
    expect(UserStatus.safeParse('cancelInvitation').success).toBe(true);
    expect(UserStatus.safeParse('cancelinvitation').success).toBe(false);
    expect(Role.safeParse('super_admin').success).toBe(true);
    expect(Role.safeParse('superadmin').success).toBe(false);
  });

  it('has 23 unique tag types', () => {
    expect(TAG_TYPES).toHaveLength(23);
    expect(new Set(TAG_TYPES).size).toBe(23);
    expect(TagType.safeParse('qrcode').success).toBe(true);
  });

  it('keeps role subsets inside the role list', () => {
    for (const role of [...AUTO_REGISTRATION_ROLES, ...VIEW_ENFORCEMENT_ROLES]) {
      expect(Role.safeParse(role).success).toBe(true);
    }
  });
});

describe('signing policies', () => {
  it('has 18 unique policies', () => {
    expect(SIGNING_POLICIES).toHaveLength(18);
    expect(new Set(SIGNING_POLICIES).size).toBe(18);
  });

  it('classifies digital policies and multiple-signature support', () => {
    expect(isDigitalSigningPolicy('DSC')).toBe(true);
    expect(isDigitalSigningPolicy('ESIGNATURE')).toBe(false);
    expect(supportsMultipleSignatureTags('ESIGNATURE')).toBe(true);
    expect(supportsMultipleSignatureTags('COSIGN')).toBe(false);
    expect(supportsMultipleSignatureTags('AADHAAR')).toBe(true);
  });
});

describe('tags', () => {
  it('uses zero overlap tolerance only for new tags', () => {
    expect(tagOverlapTolerance('new')).toBe(0);
    expect(tagOverlapTolerance('existing')).toBe(3);
    expect(tagOverlapTolerance('signer')).toBe(3);
    expect(tagOverlapTolerance(undefined)).toBe(3);
  });

  it('builds tag sets from known sign tags', () => {
    for (const set of Object.values(POLICY_TAG_SETS)) {
      for (const name of set) expect(SIGN_TAG_IDS[name]).toBeTypeOf('number');
    }
  });
});

describe('statuses', () => {
  it('pairs stamp paper values with labels in order', () => {
    expect(STAMP_PAPER_STATUS_OPTIONS).toEqual([
      { value: 'AVAILABLE', label: 'Unused' },
      { value: 'CONSUMED', label: 'Used' },
      { value: 'DRAFT', label: 'Draft' },
      { value: 'EPAK', label: 'Pending' },
      { value: 'EXPIRED', label: 'Expired' },
    ]);
  });
});

describe('notifications', () => {
  it('maps every type to a target', () => {
    expect(Object.keys(NOTIFICATION_TARGET_BY_TYPE)).toEqual([...NOTIFICATION_TYPES]);
  });
});

describe('ODP codes', () => {
  it('looks up meanings and rejects unknown codes', () => {
    expect(odpCodeMeaning(402)).toBe('PIN blocked');
    expect(odpCodeMeaning(603)).toBe('message problem');
    expect(odpCodeMeaning(106)).toBeUndefined();
    expect(OdpCode.safeParse(911).success).toBe(true);
    expect(OdpCode.safeParse('911').success).toBe(false);
  });
});

describe('time and ui helpers', () => {
  it('computes the UIS session length with a floor of 1', () => {
    expect(uisSessionLength(3600)).toBe(3480);
    expect(uisSessionLength(100)).toBe(1);
  });

  it('validates zoom levels as finite and in range', () => {
    expect(ZoomLevel.safeParse(ZOOM_DEFAULTS.min).success).toBe(true);
    expect(ZoomLevel.safeParse(ZOOM_DEFAULTS.max).success).toBe(true);
    expect(ZoomLevel.safeParse(0.5).success).toBe(false);
    expect(ZoomLevel.safeParse(3.1).success).toBe(false);
    expect(ZoomLevel.safeParse(Number.NaN).success).toBe(false);
    expect(ZoomLevel.safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
    expect(createZoomSchema(1, 5).safeParse(4).success).toBe(true);
    expect(createZoomSchema(0.1, Number.POSITIVE_INFINITY).safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
  });

  it('clamps timer delays to the setTimeout maximum', () => {
    expect(clampTimerDelay(ANNOUNCEMENT_TIMER_MAX_MS + 1)).toBe(ANNOUNCEMENT_TIMER_MAX_MS);
    expect(clampTimerDelay(-5)).toBe(0);
    expect(clampTimerDelay(1000)).toBe(1000);
  });

  it('converts bytes with the spec divisor', () => {
    expect(bytesToMegabytes(1098304)).toBe(1);
  });
});

describe('index', () => {
  it('re-exports every module', () => {
    for (const name of ['COUNTRIES', 'INDIAN_STATES', 'ODP_CODES', 'ROLES', 'SIGNING_POLICIES', 'FOLDERS', 'TAG_TYPES', 'EPAK_LIST_REFRESH_MS', 'ZOOM_DEFAULTS', 'EMAIL_PATTERN', 'WORKFLOW_STATE_TYPES', 'NOTIFICATION_TYPES']) {
      expect(constants).toHaveProperty(name);
    }
  });
});
