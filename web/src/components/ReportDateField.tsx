/**
 * The "Report date" picker of the report pages. An emptied field is ignored rather than passed on,
 * since a report always belongs to one day; days after `max` (today) cannot be picked. `problem`
 * says, next to the field, why the date in the address is not shown.
 */
export function ReportDateField({
  id,
  date,
  max,
  problem,
  onChange,
}: {
  id: string;
  date: string | undefined;
  max: string;
  problem?: string | undefined;
  onChange: (date: string) => void;
}) {
  return (
    <div className="field field-inline report-date-field">
      <label htmlFor={id}>Report date</label>
      <input
        id={id}
        type="date"
        value={date ?? ''}
        max={max}
        required
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(e) => e.target.value && onChange(e.target.value)}
      />
      {problem && (
        <span className="field-error" id={`${id}-problem`} role="alert" data-testid="date-problem">
          {problem}
        </span>
      )}
    </div>
  );
}
