/**
 * The "Report date" picker of the report pages. An emptied field is ignored rather than passed on,
 * since a report always belongs to one day; days after `max` (today) cannot be picked.
 */
export function ReportDateField({
  id,
  date,
  max,
  onChange,
}: {
  id: string;
  date: string;
  max: string;
  onChange: (date: string) => void;
}) {
  return (
    <div className="field field-inline">
      <label htmlFor={id}>Report date</label>
      <input
        id={id}
        type="date"
        value={date}
        max={max}
        required
        onChange={(e) => e.target.value && onChange(e.target.value)}
      />
    </div>
  );
}
