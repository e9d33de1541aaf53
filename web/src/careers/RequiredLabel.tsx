/** A field label with the required-field star (the star is not read out; the control says aria-required). */
export function RequiredLabel({ children }: { children: string }) {
  return (
    <>
      {children}{" "}
      <span aria-hidden className="text-red-600">
        *
      </span>
    </>
  );
}
