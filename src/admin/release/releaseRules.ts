import type { ReleaseRequest } from '../../../contract/admin';

/** The release form's fields, in the spec's order (§3 Release form). */
export const RELEASE_FIELDS = ['version', 'ue55Url', 'ue56Url', 'ue57Url'] as const satisfies readonly (keyof ReleaseRequest)[];

/** The builds a release updates (§9). */
export const RELEASE_BUILDS = ['UE 5.5', 'UE 5.6', 'UE 5.7'] as const;

/** §5: the Release button is disabled unless the version and all three URLs are filled. */
export const canRelease = (form: ReleaseRequest): boolean => RELEASE_FIELDS.every((field) => form[field] !== '');

/**
 * §5: the version and the UE 5.5 and 5.6 URLs are required (`Please fill in the version and both
 * URLs`). Blank text counts as missing; the server checks the URLs themselves.
 */
export const missesRequiredFields = (form: ReleaseRequest): boolean =>
  [form.version, form.ue55Url, form.ue56Url].some((value) => value.trim() === '');

/** What is sent: the fields without surrounding blanks. */
export const releaseRequest = (form: ReleaseRequest): ReleaseRequest => ({
  version: form.version.trim(),
  ue55Url: form.ue55Url.trim(),
  ue56Url: form.ue56Url.trim(),
  ue57Url: form.ue57Url.trim(),
});
