import type { ReactNode } from 'react';

/**
 * A table of the pages' lists: on narrow screens the `responsive` styles turn each row into a card
 * labelled by its cells' `data-label`. The caption is for screen readers; the heading above says
 * the same to the eye. `children` are the body's rows.
 */
export function DataTable({
  caption,
  columns,
  children,
}: {
  caption: ReactNode;
  columns: readonly ReactNode[];
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className="table responsive">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
