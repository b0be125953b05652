import type { ToolAnnotations } from '../tool/annotations.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';
import type { ToolListing } from '../tool/tool.js';

type Params = Readonly<Record<string, string>>;

function listing(
  name: string,
  title: string,
  description: string,
  annotations: ToolAnnotations | undefined,
  params: Params = {},
): ToolListing {
  const properties = Object.fromEntries(
    Object.entries(params).map(([key, text]) => [key, { type: 'string', description: text }]),
  );
  return {
    name,
    title,
    description,
    inputSchema: { type: 'object', properties },
    ...(annotations === undefined ? {} : { annotations }),
  };
}

const OPEN_READ: ToolAnnotations = { ...READ_ONLY, idempotentHint: false, openWorldHint: true };

/** A finance SaaS catalog of 40 tools, as its MCP server would list them. */
export const CATALOG: readonly ToolListing[] = [
  listing(
    'customers_list',
    'List Customers',
    'Get all customers for the team. Filter by name or status.',
    READ_ONLY,
    { status: 'active, inactive or archived', q: 'Text to filter by' },
  ),
  listing(
    'customers_get',
    'Get Customer',
    'Get one customer by id, with contact details.',
    READ_ONLY,
    { customerId: 'Id of the customer' },
  ),
  listing(
    'customer_create',
    'Create Customer',
    'Create a new customer. Idempotent by name.',
    WRITE,
    { name: 'Customer name', email: 'Contact email', taxId: 'Tax id' },
  ),
  listing(
    'customer_update',
    'Update Customer',
    'Change the name, email or tax id of a customer.',
    WRITE,
    { customerId: 'Id of the customer', email: 'New email' },
  ),
  listing(
    'customer_delete',
    'Delete Customer',
    'Permanently delete a customer and all associated records. Cannot be undone.',
    DESTRUCTIVE,
    { customerId: 'Id of the customer to remove' },
  ),
  listing(
    'invoices_list',
    'List Invoices',
    'List invoices, optionally by status or customer.',
    READ_ONLY,
    { status: 'draft, sent, paid or overdue', customerId: 'Only invoices of this customer' },
  ),
  listing('invoice_get', 'Get Invoice', 'Get one invoice with its line items.', READ_ONLY, {
    invoiceId: 'Id of the invoice',
  }),
  listing(
    'invoice_create_draft',
    'Create Invoice Draft',
    'Create a draft invoice for a customer. Nothing is sent.',
    WRITE,
    { customerId: 'Customer to bill', dueDate: 'Due date' },
  ),
  listing(
    'invoice_update_draft',
    'Update Invoice Draft',
    'Edit the line items or due date of a draft invoice.',
    WRITE,
    { invoiceId: 'Id of the draft' },
  ),
  listing(
    'invoice_send',
    'Send Invoice',
    'Email an invoice to the customer. It cannot be unsent.',
    DESTRUCTIVE,
    { invoiceId: 'Id of the invoice' },
  ),
  listing('invoice_delete', 'Delete Invoice', 'Delete an invoice for good.', DESTRUCTIVE, {
    invoiceId: 'Id of the invoice',
  }),
  listing(
    'finalize_invoice',
    'Finalize Invoice',
    'Lock an invoice so it can no longer be edited.',
    DESTRUCTIVE,
    { invoiceId: 'Id of the invoice' },
  ),
  listing(
    'invoice_mark_paid',
    'Mark Invoice Paid',
    'Record that an invoice has been paid.',
    WRITE,
    { invoiceId: 'Id of the invoice', paidAt: 'Payment date' },
  ),
  listing(
    'transactions_list',
    'List Transactions',
    'List recent bank transactions, newest first.',
    READ_ONLY,
    { limit: 'How many' },
  ),
  listing(
    'transactions_search',
    'Search Transactions',
    'Search bank transactions by text, amount or date range.',
    READ_ONLY,
    { query: 'Text to look for', from: 'Start date', to: 'End date' },
  ),
  listing(
    'transaction_categorize',
    'Categorize Transaction',
    'Assign a category to a transaction.',
    WRITE,
    { transactionId: 'Id of the transaction', categoryId: 'Category to assign' },
  ),
  listing(
    'transaction_attach_receipt',
    'Attach Receipt',
    'Attach an uploaded receipt file to a transaction.',
    WRITE,
    { transactionId: 'Id of the transaction', fileId: 'Uploaded file' },
  ),
  listing(
    'bank_accounts_list',
    'List Bank Accounts',
    'List the connected bank accounts.',
    READ_ONLY,
  ),
  listing(
    'bank_accounts_balances',
    'Bank Account Balances',
    'Current balance of every connected bank account.',
    READ_ONLY,
    { currency: 'Convert to this currency' },
  ),
  listing(
    'bank_account_disconnect',
    'Disconnect Bank Account',
    'Remove a bank connection and stop syncing it.',
    DESTRUCTIVE,
    { accountId: 'Bank account' },
  ),
  listing('categories_list', 'List Categories', 'List transaction categories.', READ_ONLY),
  listing('category_create', 'Create Category', 'Create a transaction category.', WRITE, {
    name: 'Category name',
  }),
  listing('category_update', 'Update Category', 'Rename a category or change its color.', WRITE, {
    categoryId: 'Category',
    name: 'New name',
  }),
  listing(
    'category_delete',
    'Delete Category',
    'Delete a category; its transactions become uncategorized.',
    DESTRUCTIVE,
    { categoryId: 'Category' },
  ),
  listing(
    'team_members_list',
    'List Team Members',
    'List the members of the team and their roles.',
    READ_ONLY,
  ),
  listing(
    'team_member_invite',
    'Invite Team Member',
    'Send an invitation email to join the team.',
    WRITE,
    { email: 'Email of the person' },
  ),
  listing(
    'team_member_remove',
    'Remove Team Member',
    'Remove a member from the team and revoke their access.',
    DESTRUCTIVE,
    { userId: 'Member to remove' },
  ),
  listing('orders_get', 'Get Order', 'Get one order with its status.', READ_ONLY, {
    orderId: 'Id of the order',
  }),
  listing('order_update_status', 'Update Order Status', 'Move an order to another status.', WRITE, {
    orderId: 'Order',
    status: 'New status',
  }),
  listing('order_cancel', 'Cancel Order', 'Cancel an order. Cannot be undone.', DESTRUCTIVE, {
    orderId: 'Order',
  }),
  listing(
    'calculate_tax',
    'Calculate Tax',
    'Compute VAT or sales tax for an amount and country.',
    READ_ONLY,
    { amount: 'Net amount', country: 'Country code' },
  ),
  listing(
    'forecast_spending',
    'Forecast Spending',
    'Project spending for the coming months from past transactions.',
    READ_ONLY,
    { months: 'How many months ahead' },
  ),
  listing(
    'reports_profit_loss',
    'Profit and Loss Report',
    'Profit and loss statement for a period.',
    READ_ONLY,
    { from: 'Start date', to: 'End date' },
  ),
  listing('reports_burn_rate', 'Burn Rate Report', 'Monthly burn rate and runway.', READ_ONLY),
  listing(
    'documents_search',
    'Search Documents',
    'Search uploaded documents and receipts by content.',
    READ_ONLY,
    { query: 'Text to look for' },
  ),
  listing('document_upload', 'Upload Document', 'Upload a file to the document vault.', WRITE, {
    fileName: 'Name of the file',
  }),
  listing(
    'bulk_archive_old_records',
    'Archive Old Records',
    'Archive all records older than a date, in bulk.',
    DESTRUCTIVE,
    { before: 'Cutoff date' },
  ),
  listing(
    'close_account',
    'Close Account',
    'Close the whole workspace account and delete its data.',
    DESTRUCTIVE,
  ),
  listing('web_search', 'Web Search', 'Search the internet for current information.', OPEN_READ, {
    query: 'What to search for',
  }),
  listing(
    'exchange_rates_get',
    'Get Exchange Rates',
    'Current currency exchange rates from an external provider.',
    OPEN_READ,
    { base: 'Base currency' },
  ),
];
