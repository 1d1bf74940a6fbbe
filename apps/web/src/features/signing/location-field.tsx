import { Button, Stack, Text, TextInput } from '@mantine/core';
import { SIGN_LOCATION_MAX_LENGTH } from '@pakt/domain';
import { useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { CrosshairIcon } from '../../ui/icons';

/** The tenant's geolocation settings that ask the signer where they are (spec §9); OFF asks nothing. */
export type LocationMode = 'OPTIONAL' | 'MANDATORY';

type LocateProblem = 'denied' | 'unavailable' | 'timeout' | 'unsupported';

/** What the browser is asked for: a rough fix is enough for "where", and nobody waits long for it. */
export const LOCATE_OPTIONS: PositionOptions = { enableHighAccuracy: false, timeout: 10_000 };

/** A position as the signature's location: "lat, lon" to 4 decimals (about 11 m), which says enough. */
export function formatCoordinates(coords: Pick<GeolocationCoordinates, 'latitude' | 'longitude'>): string {
  return `${coords.latitude.toFixed(4)}, ${coords.longitude.toFixed(4)}`;
}

// GeolocationPositionError's codes; compared as numbers, since its constants are not everywhere.
const PERMISSION_DENIED = 1;
const TIMEOUT = 3;

export interface LocationFieldProps {
  readonly mode: LocationMode;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Why signing was refused for this field (MANDATORY and blank). */
  readonly error: string | null;
  readonly inputRef?: Ref<HTMLInputElement>;
}

/**
 * "Where are you signing?": the place the signer types, or their coordinates when they ask the
 * browser for them. Typing always works, so a refusal or a browser without geolocation only
 * costs the button; what went wrong is said beside it.
 */
export function LocationField({ mode, value, onChange, error, inputRef }: LocationFieldProps) {
  const { t } = useTranslation();
  const [locating, setLocating] = useState(false);
  const [problem, setProblem] = useState<LocateProblem | null>(null);
  const required = mode === 'MANDATORY';

  const locate = () => {
    const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
    // Browsers refuse geolocation outside secure contexts (plain http to another host): say so at once.
    if (!geolocation || window.isSecureContext === false) {
      setProblem('unsupported');
      return;
    }
    setProblem(null);
    setLocating(true);
    geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        onChange(formatCoordinates(position.coords));
      },
      (failure) => {
        setLocating(false);
        setProblem(failure.code === PERMISSION_DENIED ? 'denied' : failure.code === TIMEOUT ? 'timeout' : 'unavailable');
      },
      LOCATE_OPTIONS,
    );
  };

  return (
    <Stack gap={6} data-testid="signing-location">
      <TextInput
        ref={inputRef}
        label={
          required ? (
            t('signing.location.label')
          ) : (
            <>
              {t('signing.location.label')}{' '}
              <Text span size="sm" c="dimmed" fw={400}>
                ({t('signing.location.optional')})
              </Text>
            </>
          )
        }
        description={t('signing.location.hint')}
        placeholder={t('signing.location.placeholder')}
        required={required}
        value={value}
        maxLength={SIGN_LOCATION_MAX_LENGTH}
        error={error}
        autoComplete="off"
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      <Button variant="light" size="xs" w="fit-content" leftSection={<CrosshairIcon size={16} />} loading={locating} onClick={locate}>
        {t('signing.location.useCurrent')}
      </Button>
      {locating && (
        <Text size="xs" c="dimmed" role="status">
          {t('signing.location.locating')}
        </Text>
      )}
      {problem && (
        <Text size="xs" c="orange" role="alert">
          {t(`signing.location.${problem}`)}
        </Text>
      )}
    </Stack>
  );
}
