-- CreateIndex
CREATE INDEX "invoices_workspace_id_environment_order_id_idx" ON "invoices"("workspace_id", "environment", "order_id");
