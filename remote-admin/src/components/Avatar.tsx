import { shownPicture } from '@portal/shared';

/**
 * A person's picture, or the first letter of their name. Only the identity providers' avatars are shown, asked for
 * without a referrer (@portal/shared users/picture); the parent styles the `img` and the letter's class.
 */
export function Avatar({
  picture,
  name,
  letterClass,
}: {
  picture: string | null | undefined;
  name: string;
  letterClass: string;
}) {
  const shown = shownPicture(picture);
  return shown ? (
    <img src={shown} alt="" referrerPolicy="no-referrer" />
  ) : (
    <span className={letterClass} aria-hidden="true">
      {name.charAt(0).toUpperCase()}
    </span>
  );
}
