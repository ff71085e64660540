-- DropIndex
DROP INDEX "invoices_seq_key";
