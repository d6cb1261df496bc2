locals {
  cluster_name = "minimal.example.com"
  region       = "us-east-2"
}

output "cluster_name" {
  value = "minimal.example.com"
}

output "region" {
  value = "us-east-2"
}

provider "aws" {
  region = "us-east-2"
}

terraform {
  required_version = ">= 0.15.0"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0.0"
    }
  }
}
