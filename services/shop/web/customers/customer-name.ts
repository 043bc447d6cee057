// A customer as staff call them: the name, or the e-mail address when the account has none.

export const customerName = (c: { first_name: string; last_name: string; email: string }) =>
  `${c.first_name} ${c.last_name}`.trim() || c.email;
