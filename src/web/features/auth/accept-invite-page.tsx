/** Placeholder while issue 13's work on this screen is in progress. */
export default function Page() {
  return <p>accept-invite-page</p>;
}
